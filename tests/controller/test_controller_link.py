"""The host link: the protocol against the real firmware in memory, and BoardLink over real pseudo-terminals."""

from __future__ import annotations

import asyncio
import types

import pytest
import serial
from fw_scenarios import NTAG_UID, Rig
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.link import BoardLink, discovery, firmware, lights, open_board
from companion.link.events import BoardEvent
from companion.link.protocol import MAX_FRAME, FrameTooLong, HostProtocol, frame_for, split_leds

fw_link = firmware.module("link")
fw_app = firmware.module("app")
fw_frame = firmware.module("frame")


class Pair:
    """The host protocol wired to a firmware controller through memory, with a switchable cable."""

    def __init__(self) -> None:
        self.rig = Rig(sync=False)
        self.rig.port.take()
        self.host = HostProtocol()
        self.events: list[BoardEvent] = []
        self.up = True  # board -> host passes
        self.down = True  # host -> board passes
        self.drop_down: str | None = None  # host frames of this kind are lost on the way, every time
        self.drop_acks = False  # the board's acknowledgements are lost
        self.sent: list[bytes] = []  # every line the host sent
        self.host.start(self.now)
        self.pump(20)

    @property
    def now(self) -> float:
        return self.rig.t / 1000

    def pump(self, ms: float) -> None:
        for _ in range(int(ms) // 2):
            self.rig.run(2)
            if self.rig.hw.resets:  # the board restarted itself, as the Pico would: a fresh controller
                self.reboot()
            data = self.rig.port.take()
            if self.drop_acks:
                data = b"".join(line + b"\n" for line in data.split(b"\n") if line and b" ack " not in line)
            if self.up:
                self.events += self.host.feed(data, self.now)
            self.host.poll(self.now)
            out = self.host.take_output()
            lines = [line + b"\n" for line in out.split(b"\n") if line]
            self.sent += lines
            if self.drop_down is not None:
                lines = [line for line in lines if f" {self.drop_down} ".encode() not in line]
            if self.down:
                self.rig.port.feed(b"".join(lines))

    def reboot(self) -> None:
        hardware = self.rig.hw
        self.reboots += 1
        hardware.resets = 0
        hardware.reset_cause = hardware.causes[-1]
        hardware.boot_id = f"{0xB0070000 + self.reboots:08x}"
        self.rig.port.take()  # what was on the wire when the board restarted is lost
        self.rig.controller = fw_app.Controller(self.rig.port, hardware)

    reboots = 0

    def kinds(self) -> list[str]:
        kinds = [e.kind for e in self.events]
        self.events.clear()
        return kinds


def test_session_starts_with_hello_connected_snapshot():
    pair = Pair()
    assert pair.kinds() == ["hello", "connected", "snapshot"]
    assert pair.host.ready and pair.host.board_id == "sim-0001" and pair.host.firmware == "0.1.0"


def test_button_events_reach_the_host_once_each():
    pair = Pair()
    pair.kinds()
    pair.rig.hw.seat_buttons[6].pressed = True
    pair.pump(40)
    pair.rig.hw.seat_buttons[6].pressed = False
    pair.pump(400)
    assert [(e.kind, e.button, e.action) for e in pair.events] == [
        ("button", 6, "down"),
        ("button", 6, "up"),
        ("button", 6, "press"),
    ]
    assert pair.rig.controller.link.count == 0, "every frame was acknowledged"


def test_version_mismatch_is_refused_with_a_reason(monkeypatch):
    monkeypatch.setattr(fw_link, "PROTOCOL", 99)
    pair = Pair()
    assert [e.kind for e in pair.events] == ["hello"]
    assert pair.events[0].protocol == 99 and "companion firmware deploy" in (pair.events[0].reason or "")
    assert pair.host.state == "mismatch"
    pair.rig.hw.seat_buttons[0].pressed = True
    pair.pump(100)
    assert [e.kind for e in pair.events] == ["hello"], "a board of another protocol is not used"


def test_commands_are_sent_again_until_acknowledged_and_applied_once():
    pair = Pair()
    pair.up = False  # acknowledgements from the board are lost
    pair.host.command("beep", {"pattern": "tap"}, pair.now)
    pair.pump(HostProtocol.RTO * 1000 * 3)
    assert pair.host.retransmits >= 2 and pair.host.pending
    pair.up = True
    pair.pump(HostProtocol.RTO * 1000 * 2)
    assert not pair.host.pending
    assert pair.rig.controller.commands == 1
    assert pair.rig.controller.link.repeats >= 2


def test_board_restart_is_noticed_and_its_lights_restored():
    pair = Pair()
    pair.host.command("leds", {"seats": ["00ff00"]}, pair.now)
    pair.pump(20)
    assert pair.rig.hw.pixels.shown[0] == (0, 255, 0)
    hardware = pair.rig.hw
    hardware.boot_id = "0000beef"
    hardware.pixels.shown = [(0, 0, 0)] * len(hardware.pixels.shown)
    hardware.pixels.pending = list(hardware.pixels.shown)
    pair.rig.controller = fw_app.Controller(pair.rig.port, hardware)  # a watchdog reset
    pair.kinds()
    pair.pump(40)
    assert pair.kinds() == ["hello", "connected", "snapshot"]
    assert pair.host.boot == "0000beef"
    assert pair.rig.hw.pixels.shown[0] == (0, 255, 0)


def test_silence_makes_the_host_sync_again():
    pair = Pair()
    pair.kinds()
    pair.up = False
    pair.pump(int(HostProtocol.SILENCE * 1000) + 100)
    assert pair.host.state == "syncing"
    pair.up = True
    pair.pump(HostProtocol.SYNC_RETRY * 1000 + 100)
    assert pair.host.ready
    assert pair.kinds() == ["hello", "connected", "snapshot"]


def test_discovery_picks_picos_by_usb_id_and_serial(monkeypatch):
    def port(device, vid, pid, serial_number):
        return types.SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial_number, description="")

    ports = [
        port("/dev/ttyACM1", 0x2E8A, 0x0005, "E6614C"),
        port("/dev/ttyACM0", 0x2E8A, 0x0005, "AAAA"),
        port("/dev/ttyUSB0", 0x10C4, 0xEA60, "X"),
        port("/dev/ttyS0", None, None, None),
    ]
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: ports)
    assert [b.device for b in discovery.find_boards()] == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert [b.device for b in discovery.find_boards("e6614c")] == ["/dev/ttyACM1"]


async def next_event(events, kind: str, timeout: float = 3.0) -> BoardEvent:
    async def find() -> BoardEvent:
        async for event in events:
            if event.kind == kind:
                return event
        raise AssertionError("stream ended")

    return await asyncio.wait_for(find(), timeout)


async def test_simulated_board_over_a_pseudo_terminal():
    async with BoardLink.simulated() as link:
        events = link.events()
        await next_event(events, "snapshot")
        sim = link.sim
        await asyncio.to_thread(sim.click, 4)
        event = await next_event(events, "button")
        assert (event.button, event.action, event.board_id) == (4, "down", "sim-0001")
        await asyncio.to_thread(sim.key, "undo")
        event = await next_event(events, "key")
        assert (event.key, event.action) == ("undo", "down")
        sim.place_tag(NTAG_UID)
        event = await next_event(events, "tag")
        assert (event.uid, event.present) == (NTAG_UID, True)
        await link.set_leds(seats=["ff0000"] * 7, strip="000040", flash="accept")  # within the budget
        await link.beep([(440, 30)])
        assert await link.write_tag("chili-3")
        assert await link.read_tag() == "chili-3"
        await asyncio.sleep(0.1)
        shown = sim.hardware.pixels.shown
        assert shown[0] == (255, 0, 0)
        assert 440 in sim.hardware.pwm.notes
        await events.aclose()


async def test_port_is_opened_exclusively():
    async with BoardLink.simulated() as link:
        await link.wait_connected(3)
        with pytest.raises(serial.SerialException):
            serial.Serial(link.port, exclusive=True)


async def test_unplug_rescans_and_resumes_with_the_backlog(tmp_path, monkeypatch):
    monkeypatch.setattr(BoardLink, "RESCAN", 0.1)
    from companion.link.sim import SimulatedBoard

    sim = SimulatedBoard()
    stable = tmp_path / "companion-board"  # what the udev rule's symlink gives a real board
    stable.symlink_to(sim.start())
    try:
        async with BoardLink(port=str(stable)) as link:
            events = link.events()
            await next_event(events, "snapshot")
            sim.unplug()
            stable.unlink()
            event = await next_event(events, "disconnected")
            assert "went away" in (event.reason or "")
            await asyncio.to_thread(sim.click, 1)  # pressed while the cable is out
            await asyncio.sleep(0.3)
            stable.symlink_to(sim.replug())
            await next_event(events, "connected")
            event = await next_event(events, "button")
            assert (event.button, event.action) == (1, "down"), "nothing pressed during the outage is lost"
            await next_event(events, "snapshot")
            await events.aclose()
    finally:
        sim.stop()


async def test_open_board_falls_back_to_a_simulated_board(monkeypatch):
    monkeypatch.setattr(discovery.list_ports, "comports", lambda: [])
    monkeypatch.setattr("companion.link.board.find_boards", lambda serial_number=None: [])
    link = await open_board()
    try:
        assert link.sim is not None
        await link.wait_connected(3)
    finally:
        await link.close()


def test_udev_rule_names_the_board_and_hides_it_from_modemmanager():
    rules = (firmware.HARDWARE_DIR / "99-companion.rules").read_text()
    lines = [line for line in rules.splitlines() if line and not line.startswith("#")]
    vid, pid = f"{discovery.VID:04x}", f"{discovery.PID:04x}"
    assert lines and all(f'ATTRS{{idVendor}}=="{vid}"' in r and f'ATTRS{{idProduct}}=="{pid}"' in r for r in lines)
    assert all('ENV{ID_MM_DEVICE_IGNORE}="1"' in r for r in lines)
    assert any('SUBSYSTEM=="tty"' in r and 'SYMLINK+="companion-board"' in r for r in lines)


def test_every_command_is_checked_against_the_boards_frame_limit():
    host = HostProtocol()
    with pytest.raises(FrameTooLong, match="exceeds the board's limit of 200"):
        host.command("beep", {"notes": [[20000, 5000]] * 16}, 0.0)
    with pytest.raises(FrameTooLong):
        host.command("tagw", {"card": "x" * 190}, 0.0)
    assert not host.pending, "a refused command queues nothing"
    assert len(frame_for("beep", {"notes": [[20000, 5000]] * 12})) <= MAX_FRAME


def test_an_led_state_too_big_for_one_frame_is_split_and_shown_whole():
    pair = Pair()
    seats = [f"{i + 1:02x}0000" for i in range(7)]
    strip = [f"0000{i + 1:02x}" for i in range(16)]
    with pytest.raises(FrameTooLong):
        frame_for("leds", {"seats": seats, "strip": strip, "flash": "accept"}, 0)
    parts = split_leds({"seats": seats, "strip": strip, "flash": "accept"})
    assert len(parts) >= 2 and all(len(frame_for("leds", part)) <= MAX_FRAME for part in parts)
    pair.host.command("leds", {"seats": seats, "strip": strip}, pair.now)
    pair.pump(40)
    assert not pair.host.pending
    shown = pair.rig.hw.pixels.shown
    assert shown[:7] == [(i + 1, 0, 0) for i in range(7)]
    assert shown[7:] == [(0, 0, i + 1) for i in range(16)]


async def test_set_leds_refuses_what_cannot_be_sent():
    link = BoardLink(port="/nonexistent")
    with pytest.raises(ValueError, match="limit"):
        await link.beep([(20000, 5000)] * 16)
    assert not link.protocol.pending


def test_strings_with_tilde_newline_quote_and_control_chars_cross_both_ways():
    pair = Pair()
    pair.rig.hw.reader.place(simhw_tag())
    pair.pump(300)
    card = 'a~b"c\\d\ne\x01\x7f'
    pair.host.command("tagw", {"card": card}, pair.now)
    pair.host.command("tagr", {}, pair.now)
    pair.pump(40)
    assert list(pair.host.results) == [("tagw", {"ok": True}), ("tagr", {"ok": True, "detail": card})]
    assert all(line.count(b"~") == 1 and line.count(b"\n") == 1 for line in pair.sent)
    assert pair.host.bad_frames == 0 and pair.rig.controller.link.reader.bad == 0


def simhw_tag():
    from companion.link.simhw import SimTag

    return SimTag(NTAG_UID)


def test_host_nonces_are_random_per_process():
    assert len({HostProtocol().nonce for _ in range(20)}) == 20


def test_a_restarted_host_gets_a_snapshot_and_no_replay():
    pair = Pair()
    pair.rig.click(1, gap=40)
    pair.pump(100)
    assert [e.button for e in pair.events if e.kind == "button"] == [1, 1, 1]
    pair.up = pair.down = False  # the host process dies
    pair.rig.click(2)  # pressed meanwhile: nobody acknowledges it
    pair.rig.hw.seat_buttons[4].pressed = True
    pair.pump(100)
    pair.host = HostProtocol()  # systemd starts it again
    pair.events.clear()
    pair.up = pair.down = True
    pair.host.start(pair.now)
    pair.pump(100)
    assert pair.kinds() == ["hello", "connected", "snapshot"]
    pair.rig.hw.seat_buttons[4].pressed = False
    pair.pump(200)
    buttons = [(e.button, e.action) for e in pair.events if e.kind == "button"]
    assert buttons == [(4, "up"), (4, "press")], "seat 2's press from before is not replayed"


def test_a_reset_whose_acknowledgement_is_lost_restarts_the_board_once():
    pair = Pair()
    pair.host.command("leds", {"seats": ["101010"]}, pair.now)
    pair.pump(20)
    pair.drop_acks = True
    pair.host.command("reset", {}, pair.now)
    pair.pump(HostProtocol.RTO * 1000 * 3)
    pair.drop_acks = False
    pair.pump(1000)
    assert pair.reboots == 1, "the resent reset never reaches the fresh board"
    assert not any(kind == "reset" for kind, _ in pair.host.pending)
    assert pair.host.ready and pair.host.info["cause"] == "reset"
    assert pair.rig.hw.pixels.shown[0] == (16, 16, 16), "the lights come back"


def test_a_frame_the_board_never_takes_costs_a_resync_then_is_dropped():
    pair = Pair()
    pair.kinds()
    pair.drop_down = "beep"
    pair.host.command("beep", {"pattern": "tap"}, pair.now)
    pair.host.command("leds", {"seats": ["030303"]}, pair.now)
    pair.pump(HostProtocol.RTO * 1000 * (HostProtocol.RESYNC_AFTER + 2) + 600)
    assert "hello" in pair.kinds(), "after RESYNC_AFTER tries the session is synced again"
    assert pair.host.given_up == []
    pair.pump(HostProtocol.GIVE_UP_AFTER * 1000 - 1000)
    assert pair.host.given_up == [], "a slow board gets its time"
    pair.pump(1000 + HostProtocol.RTO * 1000 * (HostProtocol.RESYNC_AFTER + 2))
    assert pair.host.given_up == ["beep"]
    pair.pump(100)
    assert pair.rig.hw.pixels.shown[0] == (3, 3, 3), "what followed the dropped frame arrives"
    assert not pair.host.pending


def test_an_old_micropython_is_refused_with_what_to_flash(monkeypatch):
    monkeypatch.setattr(fw_app, "_micropython_version", lambda: b"1.22.2")
    pair = Pair()
    assert [e.kind for e in pair.events] == ["hello"]
    assert "MicroPython 1.22.2" in (pair.events[0].reason or "") and "1.23" in (pair.events[0].reason or "")
    assert pair.host.state == "mismatch"


def test_hello_reports_the_reader_the_budget_and_the_start_cause():
    pair = Pair()
    hello = pair.events[0]
    assert (hello.reader, hello.budget_ma, hello.cause, hello.micropython) == (0x92, 350, "power", None)
    assert "reader 0x92" in hello.describe() and "350 mA" in hello.describe()


colours = st.integers(0, 0xFFFFFF).map(lambda v: f"{v:06x}")


@given(seats=st.lists(colours, min_size=7, max_size=7),
       strip=st.one_of(colours, st.lists(colours, min_size=16, max_size=16)),
       budget=st.sampled_from([350, 2000]))
@settings(max_examples=300, deadline=None)
def test_the_hosts_lights_fit_the_budget_even_under_a_flash(seats, strip, budget):
    fitted_seats, fitted_strip = lights.within_budget(seats, strip, budget_ma=budget)
    strip_list = [fitted_strip] * 16 if isinstance(fitted_strip, str) else fitted_strip
    frame = lights.worst_frame([lights.rgb(c) for c in fitted_seats], [lights.rgb(c) for c in strip_list])
    assert lights.draw_ma(frame) <= budget
    if lights.draw_ma(lights.worst_frame([lights.rgb(c) for c in seats],
                                         [lights.rgb(c) for c in ([strip] * 16 if isinstance(strip, str) else strip)]
                                         )) <= budget:
        assert (fitted_seats, fitted_strip) == (seats, strip), "what fits is sent unchanged"


def test_the_table_light_and_flashes_fit_the_usb_budget():
    from companion.play.runner import TABLE_LIGHT

    seats = ["ffffff"] * 7
    assert lights.within_budget(["000000"] * 7, TABLE_LIGHT) == (["000000"] * 7, TABLE_LIGHT)
    dimmed, strip = lights.within_budget(seats, "ffffff")
    assert dimmed != seats and strip != "ffffff", "full white everywhere is dimmed before it is sent"


def test_an_error_in_the_boards_loop_is_reported_and_the_board_restarts_at_once():
    pair = Pair()
    pair.kinds()
    pixels = pair.rig.hw.pixels
    write = pixels.write

    def fails_once() -> None:
        pixels.write = write  # the restarted board is fine again
        raise OSError(5)

    pixels.write = fails_once
    pair.host.command("leds", {"seats": ["050505"]}, pair.now)
    pair.pump(200)
    assert pair.reboots == 1 and pair.rig.hw.causes == ["error:OSError"]
    hellos = [e for e in pair.events if e.kind == "hello"]
    assert hellos and hellos[-1].cause == "error (OSError)"
    assert "started after error (OSError)" in hellos[-1].describe()
    assert pair.rig.hw.pixels.shown[0] == (5, 5, 5), "the restarted board gets its lights back"


async def test_a_board_that_stops_reading_never_blocks_the_host():
    import os
    import pty
    import time as _time

    master, slave = pty.openpty()  # a board that never reads: its side of the cable fills up
    try:
        async with BoardLink(port=os.ttyname(slave)) as link:
            await asyncio.sleep(0.1)
            assert link._serial is not None
            link.protocol.state = "ready"  # as if a session were up: commands go straight out
            for _ in range(3000):
                started = _time.monotonic()
                await link.beep("ok")
                # A write that waited for this board would wait for ever (it never reads); the bound only has
                # to sit far above a busy machine's pauses (a CI run saw one call take 0.27 s).
                assert _time.monotonic() - started < 2.0, "a write waited for the board"
            assert len(link._out) > 0 or link.protocol.pending, "the port filled up and the rest waits"
    finally:
        os.close(master)
        os.close(slave)
