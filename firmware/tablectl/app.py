"""The controller: one polling step reads the link, the buttons, the keypad and the reader, and runs outputs.

`Controller(port, hardware)` takes everything it touches as objects (pins, SPI bus, pixels, PWM, watchdog),
so the same code runs on the Pico (`hw.py` builds the real ones) and on a host with simulated ones.
"""

import json

from . import ntag
from .buttons import ACTION_NAMES, Buttons, PinSource
from .buzzer import Buzzer
from .clock import ticks_diff, ticks_ms
from .keypad import KEY_NAMES, MatrixSource
from .leds import ACCEPT, REJECT, Leds
from .link import Link
from .rc522 import RC522
from .tags import TagTracker


class Keys(Buttons):
    """The keypad has no double press: two quick taps of a grid key are two choices."""

    DOUBLE_MS = 0
    LONG_MS = 800


def parse_color(text):
    """`rrggbb` to an (r, g, b) tuple."""
    value = int(text, 16)
    return ((value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF)


class Controller:
    LOOP_MS = 2  # the pause between polling steps in `run`

    def __init__(self, port, hardware):
        self.hardware = hardware
        self.started_at = -1  # the first step's time
        self.link = Link(port, hardware.board_id, hardware.boot_id, self.command, self.write_snapshot)
        self.now = 0
        self.buttons = Buttons(PinSource(hardware.seat_pins), self.on_button)
        self.keys = Keys(MatrixSource(hardware.rows, hardware.cols), self.on_key)
        self.reader = RC522(hardware.spi, hardware.cs, hardware.rst)
        self.reader_version = self.reader.init()
        self.tags = TagTracker(self.reader, self.on_tag)
        self.leds = Leds(hardware.pixels, len(hardware.seat_pins))
        self.buzzer = Buzzer(hardware.pwm)
        self.status_led = hardware.status_led
        self.watchdog = hardware.watchdog
        self.commands = 0
        self.link.hello(0)  # unasked: tells a listening host that the board (re)started

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
        except ValueError:
            self.link.reader.bad += 1
            return
        try:
            self._command(kind, body)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            self.link.reader.bad += 1

    def _command(self, kind, body):
        now = self.now
        if kind == "leds":
            seats = body.get("seats")
            if seats is not None:
                for i in range(len(seats)):
                    self.leds.set_seat(i, parse_color(seats[i]))
            strip = body.get("strip")
            if isinstance(strip, str):
                self.leds.fill_strip(parse_color(strip))
            elif strip is not None:
                for i in range(len(strip)):
                    self.leds.set_strip(i, parse_color(strip[i]))
            flash = body.get("flash")
            if flash == "accept":
                self.leds.flash(ACCEPT, now)
            elif flash == "reject":
                self.leds.flash(REJECT, now)
        elif kind == "beep":
            notes = body.get("notes")
            if notes is not None:
                self.buzzer.play(tuple((int(f), int(ms)) for f, ms in notes), now)
            else:
                self.buzzer.play(str(body.get("pattern", "")), now)
        elif kind == "snap":
            self.link.send_snapshot(now)
        elif kind == "safe":
            self.leds.all_off()
            self.leds.poll(now)
            safe_mode = getattr(self.hardware, "safe_mode", None)
            if safe_mode is not None:
                safe_mode()
        elif kind == "reset":
            self.leds.all_off()
            self.buzzer.stop()
            reset = getattr(self.hardware, "reset", None)
            if reset is not None:
                reset()
        elif kind == "tagw":
            length = ntag.write_card(self.reader, str(body["card"]))
            self.result(b"tagw", bool(length), "" if length else "no tag answered, or the write did not verify")
        elif kind == "tagr":
            card = ntag.read_card(self.reader)
            self.result(b"tagr", card is not None, card or "")
        else:
            self.link.reader.bad += 1

    # -- the loop ----------------------------------------------------------------------------------
    def step(self, now):
        self.now = now
        if self.started_at < 0:
            self.started_at = now
        if self.link.poll(now):
            self.link.heartbeat(now, ticks_diff(now, self.started_at))
            if self.status_led is not None:
                self.status_led.toggle()
        self.buttons.poll(now)
        self.keys.poll(now)
        self.tags.poll(now)
        self.leds.poll(now)
        self.buzzer.poll(now)
        if self.watchdog is not None:
            self.watchdog.feed()

    def run(self, sleep_ms):
        while True:
            self.step(ticks_ms())
            sleep_ms(self.LOOP_MS)
