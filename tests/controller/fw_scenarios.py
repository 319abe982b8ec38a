"""Firmware scenarios against simulated hardware, written to run unchanged under CPython (pytest) and MicroPython
(the WebAssembly build under Node: node/run_firmware.mjs). Each `scenario_*` raises AssertionError on failure.
"""

import json

try:  # CPython: the firmware package is loaded from firmware/, the simulated hardware from the companion
    from companion.link import firmware as _firmware
    from companion.link import simhw

    _firmware.load()
except ImportError:  # MicroPython: the runner lays the files out in /lib
    import simhw

from tablectl import app, frame, ntag

NTAG_UID = "04A1B2C3D4E5F6"


class Rig:
    """A controller on simulated hardware with a port in memory and a clock we step by hand."""

    def __init__(self, sync=True):
        self.hw = simhw.SimHardware()
        self.port = simhw.LoopPort()
        self.controller = app.Controller(self.port, self.hw)
        self.t = 1000
        self.host_seq = 0
        self.run(4)
        if sync:
            self.send(-1, "sync", '{"proto":1,"boot":"","nonce":1}')
            self.run(4)
            self.frames()

    def run(self, ms, ack=False):
        for _ in range(ms // 2):
            self.t += 2
            self.controller.step(self.t)
            if ack:
                self.ack_all()

    def send(self, seq, kind, payload):
        self.port.feed(frame.encode(seq, kind, payload))

    def command(self, kind, payload):
        self.send(self.host_seq, kind, payload)
        self.host_seq += 1

    def frames(self):
        out = []
        for line in self.port.take().split(b"\n"):
            if line:
                decoded = frame.decode(line + b"\n")
                assert decoded is not None, line
                seq, kind, payload = decoded
                out.append((seq, kind, json.loads(payload)))
        return out

    def events(self, kinds=("btn", "key", "tag")):
        return [(kind, payload) for seq, kind, payload in self.frames() if kind in kinds]

    def ack_all(self):
        link = self.controller.link
        if link.count:
            self.send(-1, "ack", '{"n":' + str((link.base_seq + link.count - 1) & 0xFFFF) + "}")

    def click(self, seat, hold=60, gap=40):
        self.hw.seat_buttons[seat].pressed = True
        self.run(hold, ack=True)
        self.hw.seat_buttons[seat].pressed = False
        self.run(gap, ack=True)


def actions(events):
    return [payload["a"] for kind, payload in events]


def scenario_hello_then_snapshot_on_sync():
    rig = Rig(sync=False)
    first = rig.frames()
    assert first[0][1] == "hello" and first[0][0] == -1 and first[0][2]["nonce"] == 0
    assert first[0][2]["proto"] == frame.PROTOCOL and first[0][2]["board"] == "sim-0001"
    rig.hw.seat_buttons[4].pressed = True
    rig.run(40)
    rig.frames()
    rig.send(-1, "sync", '{"proto":1,"boot":"","nonce":9}')
    rig.run(4)
    frames = rig.frames()
    kinds = [kind for seq, kind, payload in frames]
    assert kinds[:2] == ["hello", "snap"], kinds
    assert frames[1][0] == 0, "a new session numbers from 0 and drops what nobody heard"
    assert frames[1][2] == {"b": [4], "k": [], "uid": None}


def scenario_seat_button_press_long_double():
    rig = Rig()
    rig.click(2)
    assert rig.events() == [
        ("btn", {"b": 2, "a": "down"}),
        ("btn", {"b": 2, "a": "up"}),
        ("btn", {"b": 2, "a": "press"}),
    ]
    rig.run(400, ack=True)
    rig.click(2, hold=900)
    assert actions(rig.events()) == ["down", "long", "up"], "a long press sends no press"
    rig.run(400, ack=True)
    rig.click(2, gap=100)
    rig.click(2)
    assert actions(rig.events()) == ["down", "up", "press", "down", "up", "double"]


def scenario_bounces_shorter_than_debounce_are_ignored():
    rig = Rig()
    button = rig.hw.seat_buttons[0]
    for _ in range(10):
        button.pressed = not button.pressed
        rig.run(6, ack=True)
    button.pressed = False
    rig.run(100, ack=True)
    assert rig.events() == []


def scenario_keypad_matrix_names_every_key():
    rig = Rig()
    names = []
    for index in range(12):
        rig.hw.matrix.press(index)
        rig.run(50, ack=True)
        rig.hw.matrix.press(index, False)
        rig.run(50, ack=True)
        events = rig.events()
        assert actions(events) == ["down", "up", "press"], events
        names.append(events[0][1]["k"])
    assert names == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "ok", "back", "undo"]
    rig.hw.matrix.press(0)
    rig.hw.matrix.press(11)
    rig.run(50, ack=True)
    rig.send(0, "snap", "{}")
    rig.run(4)
    snap = [payload for seq, kind, payload in rig.frames() if kind == "snap"]
    assert snap == [{"b": [], "k": ["1", "undo"], "uid": None}]


def scenario_ntag_placed_after_two_reads_removed_after_two_misses():
    rig = Rig()
    tag = simhw.SimTag(NTAG_UID)
    rig.hw.reader.place(tag)
    rig.run(60, ack=True)
    assert rig.events() == [], "one read is not enough"
    rig.run(200, ack=True)
    assert rig.events() == [("tag", {"uid": NTAG_UID, "on": 1})]
    rig.run(500, ack=True)
    assert rig.events() == [], "a tag resting on the reader is reported once"
    tracker = rig.controller.tags
    rig.hw.reader.remove()
    rig.run(tracker.POLL_MS, ack=True)
    assert rig.events() == [], "one miss is not enough"
    rig.run(300, ack=True)
    assert rig.events() == [("tag", {"uid": NTAG_UID, "on": 0})]


def scenario_four_byte_uid_and_swap_without_gap():
    rig = Rig()
    rig.hw.reader.place(simhw.SimTag("DEADBEEF"))
    rig.run(300, ack=True)
    assert rig.events() == [("tag", {"uid": "DEADBEEF", "on": 1})]
    rig.hw.reader.remove()
    rig.hw.reader.place(simhw.SimTag(NTAG_UID))
    rig.run(300, ack=True)
    assert rig.events() == [("tag", {"uid": "DEADBEEF", "on": 0}), ("tag", {"uid": NTAG_UID, "on": 1})]


def scenario_two_tags_at_once_are_not_read():
    rig = Rig()
    rig.hw.reader.place(simhw.SimTag(NTAG_UID))
    rig.hw.reader.place(simhw.SimTag("04112233445566"))
    rig.run(400, ack=True)
    assert rig.events() == []


def scenario_card_id_written_to_ntag_and_read_back():
    rig = Rig()
    tag = simhw.SimTag(NTAG_UID)
    rig.hw.reader.place(tag)
    rig.command("tagw", '{"card":"plant-27"}')
    rig.run(4)
    results = [payload for seq, kind, payload in rig.frames() if kind == "tagw"]
    assert results == [{"ok": True}], results
    assert ntag.unpack(tag.memory[16:48]) == "plant-27"
    rig.command("tagr", "{}")
    rig.run(4)
    results = [payload for seq, kind, payload in rig.frames() if kind == "tagr"]
    assert results == [{"ok": True, "detail": "plant-27"}]


def scenario_events_retransmitted_until_acknowledged():
    rig = Rig()
    rig.hw.seat_buttons[1].pressed = True
    rig.run(40)
    first = [seq for seq, kind, payload in rig.frames() if kind == "btn"]
    assert first == [1]
    rig.run(rig.controller.link.RTO_MS + 10)
    again = [seq for seq, kind, payload in rig.frames() if kind == "btn"]
    assert again == [1], "unacknowledged frames go again after RTO"
    rig.send(-1, "ack", '{"n":1}')
    rig.run(rig.controller.link.RTO_MS * 3)
    assert [f for f in rig.frames() if f[0] == 1] == [], "an acknowledged frame is not sent again"


def scenario_repeated_command_is_applied_once_and_acknowledged_again():
    rig = Rig()
    rig.send(0, "beep", '{"pattern":"tap"}')
    rig.send(0, "beep", '{"pattern":"tap"}')
    rig.send(2, "beep", '{"pattern":"tap"}')  # after a gap: dropped until 1 arrives
    rig.run(4)
    acks = [payload["n"] for seq, kind, payload in rig.frames() if kind == "ack"]
    assert acks == [0, 0, 0]
    assert rig.controller.commands == 1
    assert rig.controller.link.repeats == 2


def scenario_corrupt_frames_are_counted_and_ignored():
    rig = Rig()
    good = frame.encode(0, "beep", '{"pattern":"tap"}')
    bad = good.replace(b"tap", b"tbp")
    rig.port.feed(bad + b"stray text from a print\n" + b"~garbage\n")
    rig.run(1100)
    assert rig.controller.commands == 0
    heartbeats = [payload for seq, kind, payload in rig.frames() if kind == "hb"]
    assert heartbeats and heartbeats[-1]["bad"] == 2
    rig.port.feed(good)
    rig.run(4)
    assert rig.controller.commands == 1


def scenario_resumed_session_keeps_the_backlog():
    rig = Rig()
    rig.click(3)
    rig.hw.seat_buttons[5].pressed = True
    rig.run(40)  # no acks from here: the host is gone
    rig.frames()
    boot = rig.controller.link.boot_id.decode()
    rig.send(-1, "sync", '{"proto":1,"boot":"' + boot + '","nonce":2}')
    rig.run(4)
    frames = rig.frames()
    assert frames[0][1] == "hello"
    tail = [(seq, kind) for seq, kind, payload in frames[1:]]
    assert tail == [(4, "btn"), (5, "snap")], tail


def scenario_leds_flash_and_beep_on_command():
    rig = Rig()
    rig.command("leds", '{"seats":["ff0000","00ff00"],"strip":"0000ff"}')
    rig.run(4)
    shown = rig.hw.pixels.shown
    assert shown[0] == (255, 0, 0) and shown[1] == (0, 255, 0) and shown[2] == (0, 0, 0)
    assert shown[7:] == [(0, 0, 255)] * 16
    rig.command("leds", '{"flash":"reject"}')
    rig.run(4)
    assert rig.hw.pixels.shown[7] == (120, 0, 0) and rig.hw.pixels.shown[0] == (255, 0, 0)
    rig.run(400)
    assert rig.hw.pixels.shown[7] == (0, 0, 255)
    rig.command("beep", '{"pattern":"ok"}')
    rig.run(400)
    assert rig.hw.pwm.notes == [1760, 2349] and rig.hw.pwm.duty == 0
    rig.command("beep", '{"notes":[[440,50],[0,20],[660,50]]}')
    rig.run(200)
    assert rig.hw.pwm.notes[-2:] == [440, 660]


def scenario_safe_frame_restarts_into_safe_mode_without_a_session():
    rig = Rig(sync=False)
    calls = []
    rig.hw.safe_mode = lambda: calls.append(1)
    rig.send(-1, "safe", "{}")
    rig.run(4)
    assert calls == [1]


SCENARIOS = [name for name in sorted(globals()) if name.startswith("scenario_")]


def heap_figures():
    """Bytes of heap the firmware holds after start-up and allocates per idle polling step and per event."""
    import gc

    gc.collect()
    before = gc.mem_alloc()
    rig = Rig()
    rig.port.keep = False
    rig.run(200, ack=True)
    gc.collect()
    after_start = gc.mem_alloc() - before
    steps = 1000
    gc.disable()
    start = gc.mem_alloc()
    rig.run(steps * 2)
    idle = (gc.mem_alloc() - start) / steps
    gc.enable()
    gc.collect()
    start_events = rig.port.written
    gc.disable()
    start = gc.mem_alloc()
    presses = 20
    for _ in range(presses):
        rig.hw.seat_buttons[0].pressed = True
        rig.run(30)
        rig.hw.seat_buttons[0].pressed = False
        rig.run(30)
    used = gc.mem_alloc() - start
    gc.enable()
    return {
        "heap_after_start": after_start,
        "alloc_per_idle_step": idle,
        "alloc_per_button_event": used / (presses * 3),
        "bytes_sent": rig.port.written - start_events,
    }


def main():
    failed = 0
    for name in SCENARIOS:
        try:
            globals()[name]()
            print("PASS " + name)
        except Exception as exc:  # every failure is reported, then counted
            failed += 1
            print("FAIL " + name + ": " + type(exc).__name__ + " " + str(exc))
    try:
        print("HEAP " + json.dumps(heap_figures()))
    except Exception as exc:
        failed += 1
        print("FAIL heap_figures: " + type(exc).__name__ + " " + str(exc))
    print(str(len(SCENARIOS) + 1 - failed) + " passed, " + str(failed) + " failed")
    return failed
