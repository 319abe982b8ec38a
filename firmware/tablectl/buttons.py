"""Polled, debounced buttons with down / up / press / long / double, for any source of samples.

A source fills a bytearray with 1 for pressed and 0 for released (`PinSource` for buttons wired to a pin
and ground, `keypad.MatrixSource` for the scanned key matrix). Timings are class attributes so a test or a
subclass can change them; all state lives in lists made once, so polling allocates nothing.
"""

from .clock import ticks_diff

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(value):
        return value


DOWN = const(0)
UP = const(1)
PRESS = const(2)
LONG = const(3)
DOUBLE = const(4)
ACTION_NAMES = (b"down", b"up", b"press", b"long", b"double")


class PinSource:
    """Buttons between a pin (with its pull-up on) and ground: a low pin is a pressed button."""

    def __init__(self, pins):
        self.pins = pins
        self.count = len(pins)

    def sample(self, states):
        pins = self.pins
        for i in range(self.count):
            states[i] = 0 if pins[i].value() else 1


class Buttons:
    """Turns samples into events: `emit(index, action)` with an action code from this module."""

    DEBOUNCE_MS = 20  # a level must hold this long to count
    LONG_MS = 700  # held this long: `long` (sent once, while still held; the release then sends no `press`)
    DOUBLE_MS = 300  # a second press starting this soon after the first release: `double` instead of `press`

    def __init__(self, source, emit):
        self.source = source
        self.emit = emit
        count = source.count
        self.count = count
        self.samples = bytearray(count)
        self.raw = bytearray(count)
        self.stable = bytearray(count)
        self.long_sent = bytearray(count)
        self.clicked = bytearray(count)  # 1 while a short press may still become a double
        self.changed_at = [0] * count
        self.pressed_at = [0] * count
        self.released_at = [0] * count

    def poll(self, now):
        self.source.sample(self.samples)
        for i in range(self.count):
            value = self.samples[i]
            if value != self.raw[i]:
                self.raw[i] = value
                self.changed_at[i] = now
            if value != self.stable[i] and ticks_diff(now, self.changed_at[i]) >= self.DEBOUNCE_MS:
                self.stable[i] = value
                if value:
                    self._down(i, now)
                else:
                    self._up(i, now)
            elif value and self.stable[i] and not self.long_sent[i]:
                if ticks_diff(now, self.pressed_at[i]) >= self.LONG_MS:
                    self.long_sent[i] = 1
                    self.clicked[i] = 0
                    self.emit(i, LONG)

    def _down(self, i, now):
        self.pressed_at[i] = now
        self.long_sent[i] = 0
        self.emit(i, DOWN)

    def _up(self, i, now):
        self.emit(i, UP)
        if self.long_sent[i]:
            return
        if (
            self.DOUBLE_MS > 0
            and self.clicked[i]
            and ticks_diff(self.pressed_at[i], self.released_at[i]) <= self.DOUBLE_MS
        ):
            self.clicked[i] = 0
            self.emit(i, DOUBLE)
        else:
            self.clicked[i] = 1
            self.emit(i, PRESS)
        self.released_at[i] = now

    def held(self, i):
        return self.stable[i] == 1
