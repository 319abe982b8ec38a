"""The host link: the protocol against the real firmware in memory, and BoardLink over real pseudo-terminals."""

from __future__ import annotations

import asyncio
import types

import pytest
import serial
from fw_scenarios import NTAG_UID, Rig

from companion.link import BoardLink, discovery, firmware, open_board
from companion.link.events import BoardEvent
from companion.link.protocol import HostProtocol

fw_link = firmware.module("link")
fw_app = firmware.module("app")


class Pair:
    """The host protocol wired to a firmware controller through memory, with a switchable cable."""

    def __init__(self) -> None:
        self.rig = Rig(sync=False)
        self.rig.port.take()
        self.host = HostProtocol()
        self.events: list[BoardEvent] = []
        self.up = True  # board -> host passes
        self.down = True  # host -> board passes
        self.host.start(self.now)
        self.pump(20)

    @property
    def now(self) -> float:
        return self.rig.t / 1000

    def pump(self, ms: float) -> None:
        for _ in range(int(ms) // 2):
            self.rig.run(2)
            data = self.rig.port.take()
            if self.up:
                self.events += self.host.feed(data, self.now)
            self.host.poll(self.now)
            out = self.host.take_output()
            if self.down:
                self.rig.port.feed(out)

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
        await link.set_leds(seats=["ff0000"] * 7, strip="0000ff", flash="accept")
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
