"""The controller: one polling step reads the link, the buttons, the keypad and the reader, and runs outputs.

`Controller(port, hardware)` takes everything it touches as objects (pins, SPI bus, pixels, PWM, watchdog),
so the same code runs on the Pico (`hw.py` builds the real ones) and on a host with simulated ones.
"""

import json
import sys

from . import ntag, power
from .buttons import ACTION_NAMES, Buttons, PinSource
from .buzzer import MAX_NOTES, PATTERNS, Buzzer, clamp_note
from .clock import ticks_add, ticks_diff, ticks_ms
from .keypad import KEY_NAMES, MatrixSource
from .leds import ACCEPT, REJECT, Leds
from .link import Link
from .rc522 import RC522
from .tags import TagTracker


class Keys(Buttons):
    """The keypad has no double press: two quick taps of a grid key are two choices."""

    DOUBLE_MS = 0
    LONG_MS = 800


_HEX_DIGITS = "0123456789abcdefABCDEF"


def parse_color(text):
    """`rrggbb` to an (r, g, b) tuple; ValueError for anything else."""
    if not isinstance(text, str) or len(text) != 6:
        raise ValueError("a colour is six hex digits")
    for c in text:
        if c not in _HEX_DIGITS:
            raise ValueError("a colour is six hex digits")
    value = int(text, 16)
    return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)


def parse_notes(notes):
    """Host notes [[Hz, ms], ...] as a tuple of clamped (Hz, ms) pairs, at most MAX_NOTES of them."""
    if not isinstance(notes, list):
        raise ValueError("notes are a list")
    out = []
    for note in notes[:MAX_NOTES]:
        if not isinstance(note, list) or len(note) != 2:
            raise ValueError("a note is [Hz, ms]")
        freq, ms = note
        # Out-of-range numbers (1e13 ms, inf) are clamped before int() could overflow.
        if not isinstance(freq, (int, float)) or not isinstance(ms, (int, float)):
            raise ValueError("a note is two numbers")
        freq = 0 if freq != freq or freq <= 0 else 20000 if freq > 20000 else freq
        ms = 0 if ms != ms or ms <= 0 else 5000 if ms > 5000 else ms
        out.append(clamp_note(freq, ms))
    return tuple(out)


def _micropython_version():
    """`1.27.0` under MicroPython (the host checks it), empty elsewhere (the simulated board on the host)."""
    impl = sys.implementation
    if impl.name != "micropython":
        return b""
    v = impl.version
    return ("%d.%d.%d" % (v[0], v[1], v[2])).encode()


class Controller:
    LOOP_MS = 2  # the pause between polling steps in `run`
    RESET_DELAY_MS = 100  # between the acknowledgement of `reset` and the restart, so the ack leaves first

    def __init__(self, port, hardware):
        self.hardware = hardware
        self.started_at = -1  # the first step's time
        self.link = Link(port, hardware.board_id, hardware.boot_id, self.command, self.write_snapshot)
        self.now = 0
        self.buttons = Buttons(PinSource(hardware.seat_pins), self.on_button)
        self.keys = Keys(MatrixSource(hardware.rows, hardware.cols), self.on_key)
        self.reader = RC522(hardware.spi, hardware.cs, hardware.rst)
        self.tags = TagTracker(self.reader, self.on_tag)
        budget = getattr(hardware, "led_budget_ma", power.USB_BUDGET_MA)
        self.leds = Leds(hardware.pixels, len(hardware.seat_pins), budget)
        self.buzzer = Buzzer(hardware.pwm)
        self.status_led = hardware.status_led
        self.watchdog = hardware.watchdog
        self.commands = 0
        self.reset_due = -1  # when a `reset` command restarts the board; -1: none pending
        self.failures = 0  # errors caught in a step (each restarts a real board)
        link = self.link
        link.micropython = _micropython_version()
        link.budget_ma = budget
        link.cause = str(getattr(hardware, "reset_cause", "power")).encode()
        link.hello(0)  # unasked: tells a listening host that the board (re)started

    # -- events to the host ------------------------------------------------------------------------
    def on_button(self, index, action):
        writer = self.link.start(b"btn")
        if writer is None:
            return
        writer.raw(b'{"b":')
        writer.int(index)
        writer.raw(b',"a":')
        writer.text(ACTION_NAMES[action])
        writer.byte(0x7D)
        self.link.finish(self.now)

    def on_key(self, index, action):
        writer = self.link.start(b"key")
        if writer is None:
            return
        writer.raw(b'{"k":')
        writer.text(KEY_NAMES[index])
        writer.raw(b',"a":')
        writer.text(ACTION_NAMES[action])
        writer.byte(0x7D)
        self.link.finish(self.now)

    def on_tag(self, uid, length, present):
        writer = self.link.start(b"tag")
        if writer is None:
            return
        writer.raw(b'{"uid":"')
        writer.hex(uid, length)
        writer.raw(b'","on":')
        writer.int(1 if present else 0)
        writer.byte(0x7D)
        self.link.finish(self.now)

    def write_snapshot(self, writer):
        writer.raw(b'{"b":[')
        first = True
        for i in range(self.buttons.count):
            if self.buttons.held(i):
                if not first:
                    writer.byte(0x2C)
                writer.int(i)
                first = False
        writer.raw(b'],"k":[')
        first = True
        for i in range(self.keys.count):
            if self.keys.held(i):
                if not first:
                    writer.byte(0x2C)
                writer.text(KEY_NAMES[i])
                first = False
        writer.raw(b'],"uid":')
        if self.tags.present:
            writer.byte(0x22)
            writer.hex(self.tags.uid, self.tags.uid_len)
            writer.byte(0x22)
        else:
            writer.raw(b"null")
        writer.byte(0x7D)

    def result(self, kind, ok, detail):
        writer = self.link.start(kind, True)
        if writer is None:
            return
        writer.raw(b'{"ok":')
        writer.raw(b"true" if ok else b"false")
        if detail:
            writer.raw(b',"detail":')
            writer.text(detail.encode())
        writer.byte(0x7D)
        self.link.finish(self.now)

    # -- commands from the host --------------------------------------------------------------------
    def command(self, kind, payload):
        self.commands += 1
        try:
            body = json.loads(payload) if payload else {}
            if not isinstance(body, dict):
                raise ValueError("a payload is an object")
        except ValueError:
            self.link.reader.bad += 1
            return
        try:
            self._command(kind, body)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError):
            self.link.reader.bad += 1  # a command that does not fit changes nothing

    def _command(self, kind, body):
        now = self.now
        if kind == "leds":
            leds = self.leds
            # Everything is parsed before anything changes, so a bad colour changes nothing.
            seats = body.get("seats")
            seat_colors = () if seats is None else tuple(parse_color(c) for c in seats[: leds.seats])
            strip = body.get("strip")
            strip_len = leds.count - leds.seats
            at = body.get("at", 0)
            if not isinstance(at, int):
                raise ValueError("at is a pixel index")
            at = 0 if at < 0 else strip_len if at > strip_len else at
            fill = None
            strip_colors = ()
            if isinstance(strip, str):
                fill = parse_color(strip)
            elif strip is not None:
                strip_colors = tuple(parse_color(c) for c in strip[: strip_len - at])
            flash = body.get("flash")
            if flash not in (None, "accept", "reject"):
                raise ValueError("flash is accept or reject")
            for i in range(len(seat_colors)):
                leds.set_seat(i, seat_colors[i])
            if fill is not None:
                leds.fill_strip(fill)
            for i in range(len(strip_colors)):
                leds.set_strip(at + i, strip_colors[i])
            if flash == "accept":
                leds.flash(ACCEPT, now)
            elif flash == "reject":
                leds.flash(REJECT, now)
        elif kind == "beep":
            notes = body.get("notes")
            if notes is not None:
                self.buzzer.play(parse_notes(notes), now)
            else:
                pattern = body.get("pattern", "")
                if pattern not in PATTERNS:
                    raise ValueError("no such pattern")
                self.buzzer.play(pattern, now)
        elif kind == "snap":
            self.link.send_snapshot(now)
        elif kind == "safe":
            self.leds.all_off()
            self.leds.poll(now)
            safe_mode = getattr(self.hardware, "safe_mode", None)
            if safe_mode is not None:
                safe_mode()
        elif kind == "reset":
            # Dark and silent now; the restart waits until the acknowledgement (already written) has left.
            self.leds.all_off()
            self.leds.poll(now)
            self.buzzer.stop()
            self.link.frozen = True  # later commands stay unacknowledged: the restarted board gets them
            self.reset_due = ticks_add(now, self.RESET_DELAY_MS)  # pyright: ignore[reportArgumentType]
        elif kind == "tagw":
            card = body.get("card")
            try:
                if not isinstance(card, str):
                    raise ValueError("no card id")
                ntag.pack(card)
            except ValueError:
                self.result(b"tagw", False, "a card id is 1 to %d ASCII characters" % ntag.MAX_ID)
                return
            if not self.reader.ready:
                self.result(b"tagw", False, "the reader is not ready (starting, or not answering)")
                return
            length = ntag.write_card(self.reader, card)
            self.result(b"tagw", bool(length), "" if length else "no tag answered, or the write did not verify")
        elif kind == "tagr":
            card = ntag.read_card(self.reader)
            self.result(b"tagr", card is not None, card or "")
        else:
            self.link.reader.bad += 1

    # -- the loop ----------------------------------------------------------------------------------
    def step(self, now):
        """One polling step. Whatever goes wrong in it is reported and restarts the board at once: the loop
        never ends in the REPL (where the watchdog would bite only seconds later)."""
        try:
            self._step(now)
        except Exception as exc:  # every failure: report it, then restart
            self.fail(exc)

    def fail(self, exc):
        self.failures += 1
        try:
            self.leds.all_off()
            self.leds.poll(self.now)
            self.buzzer.stop()
        except Exception:  # the lights are what failed: restart all the same
            pass
        name = type(exc).__name__[:20]
        self.link.error(name.encode())  # best effort: the restart may cut it off, so the cause keeps the name too
        reset = getattr(self.hardware, "reset", None)
        if reset is not None:
            reset("error:" + name)

    def _step(self, now):
        self.now = now
        # First in the step, so the reader's reset and its wait are timed from (nearly) the same moment.
        self.reader.maintain(now)
        if self.reset_due >= 0 and ticks_diff(now, self.reset_due) >= 0:
            self.reset_due = -1
            reset = getattr(self.hardware, "reset", None)
            if reset is not None:
                reset("reset")
        if self.started_at < 0:
            self.started_at = now
        if self.link.poll(now):
            self.link.heartbeat(now, ticks_diff(now, self.started_at))
            if self.status_led is not None:
                self.status_led.toggle()
        self.buttons.poll(now)
        self.keys.poll(now)
        self.tags.poll(now)
        self.link.reader_version = self.reader.version
        self.link.reader_inits = self.reader.inits
        self.leds.poll(now)
        self.buzzer.poll(now)
        if self.watchdog is not None:
            self.watchdog.feed()

    def run(self, sleep_ms):
        while True:
            self.step(ticks_ms())
            sleep_ms(self.LOOP_MS)
