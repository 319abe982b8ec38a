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

from tablectl import app, frame, ntag, power, rc522

NTAG_UID = "04A1B2C3D4E5F6"
READER_READY_MS = 60  # the reader's soft reset and set-up after start-up


class Rig:
    """A controller on simulated hardware with a port in memory and a clock we step by hand."""

    def __init__(self, sync=True):
        self.t = 1000
        self.hw = simhw.SimHardware()
        self.hw.reader.clock = self.clock
        self.hw.watchdog = simhw.SimWatchdog()
        self.port = simhw.LoopPort()
        self.controller = app.Controller(self.port, self.hw)
        self.host_seq = 0
        self.run(READER_READY_MS)
        if sync:
            self.send(-1, "sync", '{"proto":1,"boot":"","nonce":1}')
            self.run(4)
            self.frames()

    def clock(self):
        return self.t

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
    rig.command("leds", '{"seats":["ff0000","00ff00"],"strip":"000080"}')
    rig.run(4)
    shown = rig.hw.pixels.shown
    assert shown[0] == (255, 0, 0) and shown[1] == (0, 255, 0) and shown[2] == (0, 0, 0)
    assert shown[7:] == [(0, 0, 128)] * 16, "within the budget: shown as sent"
    rig.command("leds", '{"flash":"reject"}')
    rig.run(4)
    assert rig.hw.pixels.shown[7] == (120, 0, 0) and rig.hw.pixels.shown[0] == (255, 0, 0)
    rig.run(400)
    assert rig.hw.pixels.shown[7] == (0, 0, 128)
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


def padded(seq, kind, body, size):
    """A frame of exactly `size` bytes: `body` (a JSON object) padded with spaces before its closing brace."""
    base = len(frame.encode(seq, kind, body))
    return frame.encode(seq, kind, body[:-1] + " " * (size - base) + "}")


def scenario_frames_at_the_limit_are_taken_and_over_it_refused():
    rig = Rig()
    at_limit = padded(0, "leds", '{"seats":["010203"]}', frame.MAX_FRAME)
    assert len(at_limit) == frame.MAX_FRAME
    rig.port.feed(at_limit)
    rig.run(4)
    assert [p["n"] for s, k, p in rig.frames() if k == "ack"] == [0]
    assert rig.hw.pixels.shown[0] == (1, 2, 3)
    bad = rig.controller.link.reader.bad
    rig.port.feed(padded(1, "leds", '{"seats":["040506"]}', frame.MAX_FRAME + 1))
    rig.run(4)
    assert rig.controller.link.reader.bad == bad + 1, "over the limit: a bad frame"
    assert [k for s, k, p in rig.frames() if k == "ack"] == [], "not acknowledged"
    assert rig.hw.pixels.shown[0] == (1, 2, 3)
    rig.port.feed(padded(1, "leds", '{"seats":["070809"]}', frame.MAX_FRAME))
    rig.run(4)
    assert rig.hw.pixels.shown[0] == (7, 8, 9), "the link goes on with the next frame"


NASTY = 'a~b"c\\d\n\r\t\x01\x1f\x7f~'


def scenario_json_strings_with_tilde_newline_quote_and_control_chars_survive():
    rig = Rig()
    rig.hw.reader.place(simhw.SimTag(NTAG_UID))
    rig.run(200, ack=True)
    rig.frames()
    payload = frame.escape(json.dumps({"card": NASTY}))
    assert "~" not in payload and "\n" not in payload
    rig.command("tagw", payload)
    rig.run(4, ack=True)
    rig.command("tagr", "{}")
    rig.run(4, ack=True)
    raw = rig.port.take()
    assert raw.count(b"~") == raw.count(b"\n"), "every ~ starts a frame, every newline ends one"
    results = []
    for line in raw.split(b"\n"):
        if line:
            _, kind, body = frame.decode(line + b"\n")
            if kind in ("tagw", "tagr"):
                results.append((kind, json.loads(body)))
    assert results == [("tagw", {"ok": True}), ("tagr", {"ok": True, "detail": NASTY})], results
    # A tag whose id was written elsewhere, with a quote and bytes that are not text
    tag = simhw.SimTag("04112233445566")
    data = ntag.pack('say "hi"~')
    for i in range(len(data)):
        tag.memory[16 + i] = data[i]
    rig.hw.reader.remove()
    rig.hw.reader.place(tag)
    rig.run(200, ack=True)
    rig.frames()
    rig.command("tagr", "{}")
    rig.run(4, ack=True)
    assert [p for s, k, p in rig.frames() if k == "tagr"] == [{"ok": True, "detail": 'say "hi"~'}]


def scenario_host_restart_in_the_middle_of_presses_replays_nothing_and_sends_a_snapshot():
    rig = Rig()
    rig.click(1)
    rig.events()
    rig.hw.seat_buttons[2].pressed = True  # pressed while the host process is down: never acknowledged
    rig.run(60)
    rig.hw.seat_buttons[2].pressed = False
    rig.run(60)
    rig.hw.seat_buttons[3].pressed = True
    rig.run(60)
    rig.frames()
    # The restarted host knows no boot id; even the very nonce of the old session must not pass for a repeat.
    rig.send(-1, "sync", '{"proto":1,"boot":"","nonce":1}')
    rig.run(4)
    frames = rig.frames()
    assert [(s, k) for s, k, p in frames if k != "hb"] == [(-1, "hello"), (0, "snap")], frames
    assert frames[-1][2] == {"b": [3], "k": [], "uid": None}, "what is held now, as a snapshot"
    rig.run(1000, ack=True)
    later = [p for s, k, p in rig.frames() if k == "btn"]
    assert later == [{"b": 3, "a": "long"}], "nothing replayed; only what happens now (seat 3 is still held)"


def scenario_repeated_sync_is_answered_with_the_hello_and_the_backlog_only():
    rig = Rig(sync=False)
    rig.frames()
    rig.send(-1, "sync", '{"proto":1,"boot":"","nonce":77}')
    rig.run(4)
    assert [k for s, k, p in rig.frames()] == ["hello", "snap"]
    rig.send(-1, "sync", '{"proto":1,"boot":"","nonce":77}')  # its hello was lost; the host said nothing since
    rig.run(4)
    frames = rig.frames()
    assert [(s, k) for s, k, p in frames] == [(-1, "hello"), (0, "snap")], "same session, same numbering"


def scenario_reset_leaves_after_its_acknowledgement_with_the_lights_off():
    rig = Rig()
    rig.command("leds", '{"seats":["102030"],"strip":"050505"}')
    rig.run(4, ack=True)
    rig.command("beep", '{"notes":[[440,3000]]}')
    rig.run(4, ack=True)
    rig.frames()
    rig.command("reset", "{}")
    rig.run(2)
    assert [p["n"] for s, k, p in rig.frames() if k == "ack"] == [2], "the acknowledgement goes first"
    assert rig.hw.pixels.shown == [(0, 0, 0)] * len(rig.hw.pixels.shown) and rig.hw.pwm.duty == 0
    assert rig.hw.resets == 0, "not before the acknowledgement has had time to leave"
    rig.send(2, "reset", "{}")  # the host did not hear the ack and sends it again
    rig.send(3, "beep", '{"pattern":"tap"}')  # and what followed: left for the restarted board
    rig.run(app.Controller.RESET_DELAY_MS + 10)
    assert rig.hw.resets == 1 and rig.hw.causes == ["reset"]
    assert rig.controller.commands == 3, "nothing after the reset was taken"
    # The restarted board takes no sequenced frame before a sync: an old resend cannot reset it again.
    rig.hw.resets = 0
    rig.hw.boot_id = "0000beef"
    rig.hw.reset_cause = "reset"
    rig.controller = app.Controller(rig.port, rig.hw)
    rig.run(4)
    first = rig.frames()
    assert first[0][1] == "hello" and first[0][2]["why"] == "reset"
    rig.send(2, "reset", "{}")
    rig.run(200)
    assert rig.hw.resets == 0 and rig.controller.commands == 0


def scenario_commands_out_of_range_are_clamped_or_refused_and_never_stop_the_loop():
    rig = Rig()
    rig.command("beep", '{"notes":[[5,1e13],[0,1],[30000,-5],[0,1],[440,50],[0,1],[1e400,20],[0,10]]}')
    rig.run(5000 + 200)
    assert rig.hw.pwm.notes == [20, 20000, 440, 20000], rig.hw.pwm.notes
    assert rig.hw.pwm.duty == 0, "every note ended: 1e13 ms became 5 s"
    bad = rig.controller.link.reader.bad
    for body in (
        '{"seats":["zzzzzz"]}',
        '{"seats":["-12345"]}',
        '{"strip":["ff0000"],"at":"x"}',
        '{"flash":"sparkle"}',
        '{"notes":[[440]]}',
        '{"pattern":"nope"}',
        "[1,2,3]",
        '{"notes":"loud"}',
    ):
        rig.command("beep" if "note" in body or "pattern" in body else "leds", body)
        rig.run(4)
    assert rig.controller.link.reader.bad == bad + 8
    assert rig.hw.pixels.shown[0] == (0, 0, 0), "a bad command changes nothing"
    rig.command("leds", '{"seats":["010101","020202","030303","040404","050505","060606","070707","080808","090909"]}')
    rig.command("leds", '{"strip":["0a0a0a","0b0b0b","0c0c0c"],"at":14}')
    rig.command("leds", '{"strip":["0d0d0d"],"at":-3}')
    rig.run(4)
    shown = rig.hw.pixels.shown
    assert shown[6] == (7, 7, 7) and len(shown) == 23, "seats past the seventh are ignored"
    assert shown[7 + 14] == (10, 10, 10) and shown[7 + 15] == (11, 11, 11), "a run is cut at the strip's end"
    assert shown[7] == (13, 13, 13), "a negative start is the first pixel"
    rig.command("tagw", '{"card":""}')
    rig.command("tagw", '{"card":' + json.dumps("x" * (ntag.MAX_ID + 1)) + "}")
    rig.run(4)
    assert [p["ok"] for s, k, p in rig.frames() if k == "tagw"] == [False, False]
    assert rig.hw.resets == 0 and rig.controller.failures == 0


def scenario_an_error_in_a_step_is_reported_and_restarts_the_board_at_once():
    rig = Rig()
    rig.frames()

    def broken():
        raise OSError(5)

    rig.hw.pixels.write = broken
    rig.command("leds", '{"seats":["ff0000"]}')
    rig.run(2)
    errors = [p for s, k, p in rig.frames() if k == "err"]
    assert errors == [{"e": "OSError"}], errors
    assert rig.hw.causes == ["error:OSError"], "the cause keeps the name, should the err frame not get out"


def scenario_a_stalled_host_never_starves_the_watchdog():
    rig = Rig()
    rig.frames()
    rig.port.capacity = 300  # the host stopped reading: about one and a half frames fit
    feeds = rig.hw.watchdog.feeds
    steps = 0
    presses = 9  # 27 frames waiting: the ring's most for events
    for i in range(presses):
        rig.hw.seat_buttons[i % 7].pressed = True
        rig.run(40)
        rig.hw.seat_buttons[i % 7].pressed = False
        rig.run(40)
        steps += 40
    rig.run(3000)
    steps += 1500
    assert rig.port.blocked_ms == 0, "no write that would block was started"
    assert rig.hw.watchdog.feeds - feeds == steps, "fed in every step"
    assert rig.controller.link.unsent > 0
    # The host reads again, acknowledging what it got in sequence: every event arrives, once, in order.
    rig.port.capacity = None
    expect = 0
    got = []
    for _ in range(300):
        rig.run(10)
        for seq, kind, payload in rig.frames():
            if seq == expect:
                expect += 1
                if kind == "btn":
                    got.append((payload["b"], payload["a"]))
        if expect:
            rig.send(-1, "ack", '{"n":' + str(expect - 1) + "}")
    wanted = []
    for i in range(presses):
        wanted += [(i % 7, "down"), (i % 7, "up"), (i % 7, "press")]
    assert got == wanted, got
    assert rig.controller.link.count == 0


def scenario_the_reader_times_each_command_for_what_it_needs():
    rig = Rig()
    timers = rig.hw.reader.timer_us
    assert 1000 <= timers[0x52] <= 2000, timers[0x52]  # WUPA, with nothing on the reader
    rig.controller.reader.wake(rc522.REQA)
    assert 1000 <= timers[0x26] <= 2000, timers[0x26]
    rig.hw.reader.place(simhw.SimTag(NTAG_UID))
    rig.run(200, ack=True)
    assert 1000 <= timers[0x50] <= 2000, timers[0x50]  # HLTA: silence is its answer, soon
    assert 1000 <= timers[0x93] <= 2000 and 1000 <= timers[0x95] <= 2000
    rig.command("tagw", '{"card":"plant-27"}')
    rig.run(4, ack=True)
    assert [p for s, k, p in rig.frames() if k == "tagw"] == [{"ok": True}]
    assert timers[0x30] >= 4000, "a page read gets longer"
    assert timers[0xA2] >= 5000, "a page write needs its 4.1 ms"


def scenario_the_reader_waits_after_its_reset_checks_its_version_and_heals_a_drift():
    rig = Rig()
    reader = rig.controller.reader
    assert reader.ready and reader.version == 0x92 and reader.inits == 1
    assert rig.hw.reader.ignored == 0, "nothing was sent while the chip started"
    weak = simhw.SimTag(NTAG_UID, weak=True)  # a sticker under a sleeve: needs the receiver gain up
    rig.hw.reader.place(weak)
    rig.run(200, ack=True)
    assert rig.events() == [("tag", {"uid": NTAG_UID, "on": 1})]
    rig.hw.reader.esd()  # the chip lost its set-up: antenna off, gain and timer at their reset values
    rig.run(reader.CHECK_MS + 200, ack=True)
    assert reader.drifts == 1 and reader.inits == 2
    assert rig.events() == [], "the tag stayed put: no removal, no second placement"
    rig.run(1100)
    beats = [p for s, k, p in rig.frames() if k == "hb"]
    assert beats and beats[-1]["rc"] == 0x92 and beats[-1]["ri"] == 2


def scenario_a_sticker_under_a_sleeve_needs_the_receiver_gain_the_driver_sets():
    rig = Rig()
    reader = rig.controller.reader
    rig.hw.reader.place(simhw.SimTag(NTAG_UID, weak=True))
    assert reader.read_uid() == 7, "read at 48 dB"
    reader.write_reg(rc522.RF_CFG, 0x48)  # the chip's reset value, 33 dB
    assert reader.read_uid() == 0, "too faint at the reset gain"
    assert not reader.registers_ok(), "and the check sees the drift"


def scenario_a_set_up_without_the_wait_after_reset_reads_no_tag():
    rig = Rig(sync=False)
    hw = simhw.SimHardware()
    hw.reader.clock = rig.clock
    port = simhw.LoopPort()
    controller = app.Controller(port, hw)
    controller.reader.RESET_MS = 0  # a driver that skips the 50 ms
    hw.reader.place(simhw.SimTag(NTAG_UID))
    for _ in range(200):
        rig.t += 2
        controller.step(rig.t)
    assert hw.reader.ignored > 0
    assert controller.tags.uid_len == 0, "the simulated chip ignored the set-up, so no tag answers"


def scenario_a_missing_reader_is_reported_and_tried_again():
    rig = Rig(sync=False)
    hw = simhw.SimHardware()
    hw.reader = simhw.SimRC522(version=0, clock=rig.clock)
    hw.spi = hw.reader
    port = simhw.LoopPort()
    controller = app.Controller(port, hw)
    for _ in range(1500):
        rig.t += 2
        controller.step(rig.t)
    hellos = [json.loads(line[line.index(b"{") : line.rindex(b"}") + 1]) for line in port.take().split(b"\n")
              if b" hello " in line]
    hello = hellos[0]
    assert hello["rc"] == 0
    assert hw.reader.resets >= 0 and not controller.reader.ready
    hw.reader.version = 0x92  # plugged in properly now
    for _ in range(1200):
        rig.t += 2
        controller.step(rig.t)
    assert controller.reader.ready and controller.reader.version == 0x92


def _list(colors):
    return "[" + ",".join('"' + c + '"' for c in colors) + "]"


def _next(state):
    return (state * 1103515245 + 12345) & 0x7FFFFFFF


def scenario_no_led_state_the_host_can_send_exceeds_the_budget():
    rig = Rig()
    budget = rig.hw.led_budget_ma
    state = 12345
    colors = ("ffffff", "ff0000", "00ff00", "0000ff", "000000", "808080", "ffff00")
    worst = 0
    for i in range(150):
        state = _next(state)
        seats = [colors[(state >> k) % len(colors)] for k in range(7)]
        strip = colors[(state >> 9) % len(colors)] if state & 1 else [colors[(state >> k) % 7] for k in range(16)]
        flash = ""
        if state & 2:
            flash = ',"flash":"accept"' if state & 4 else ',"flash":"reject"'
        # As the host sends them: the seats, then the strip (a frame holds both only with a one-colour strip)
        rig.command("leds", '{"seats":' + _list(seats) + "}")
        strip_json = _list(strip) if isinstance(strip, list) else '"' + strip + '"'
        rig.command("leds", '{"strip":' + strip_json + flash + "}")
        body = (seats, strip, flash)
        rig.run(2 + (state >> 20) % 400, ack=True)
        shown = rig.hw.pixels.shown
        drawn = power.draw_ma(power.channel_sum(shown, len(shown)), len(shown))
        worst = max(worst, drawn)
        assert drawn <= budget, (i, drawn, body)
    assert worst > budget * 0.9, ("the budget is used, not wasted", worst)
    rig.command("leds", '{"seats":["ffffff","ffffff","ffffff","ffffff","ffffff","ffffff","ffffff"],"strip":"ffffff"}')
    rig.run(4, ack=True)
    assert rig.controller.leds.scaled > 0 and rig.hw.pixels.shown[0][0] < 255, "full white is dimmed"


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
