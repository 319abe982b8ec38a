"""The WS2812 chain: one pixel under each seat button, then the strip; flashes for accept and reject."""

from .clock import ticks_add, ticks_diff

OFF = (0, 0, 0)
ACCEPT = (0, 80, 0)
REJECT = (120, 0, 0)


class Leds:
    """Colours are set by command and written to the chain only when something changed."""

    FLASH_MS = 300

    def __init__(self, pixels, seats):
        self.pixels = pixels
        self.seats = seats
        self.count = len(pixels)
        self.colors = [OFF] * self.count
        self.flash_color = OFF
        self.flash_until = 0
        self.flashing = False
        self.dirty = True

    def set_seat(self, seat, color):
        if 0 <= seat < self.seats:
            self.colors[seat] = color
            self.dirty = True

    def set_strip(self, index, color):
        if 0 <= index < self.count - self.seats:
            self.colors[self.seats + index] = color
            self.dirty = True

    def fill_strip(self, color):
        for i in range(self.seats, self.count):
            self.colors[i] = color
        self.dirty = True

    def flash(self, color, now):
        self.flash_color = color
        self.flash_until = ticks_add(now, self.FLASH_MS)
        self.flashing = True
        self.dirty = True

    def poll(self, now):
        if self.flashing and ticks_diff(now, self.flash_until) >= 0:
            self.flashing = False
            self.dirty = True
        if not self.dirty:
            return
        self.dirty = False
        pixels = self.pixels
        for i in range(self.count):
            pixels[i] = self.flash_color if self.flashing and i >= self.seats else self.colors[i]
        pixels.write()

    def all_off(self):
        for i in range(self.count):
            self.colors[i] = OFF
        self.flashing = False
        self.dirty = True
