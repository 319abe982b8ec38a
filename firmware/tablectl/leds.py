"""The pixels: one under each seat button, then the strip; flashes for accept and reject; a current budget.

Every frame written is scaled so that all pixels together draw at most the budget (power.py): the host designs
its lights within it, and whatever it sends, the board never draws more from the Pi's USB port.
"""

from . import power
from .clock import ticks_add, ticks_diff

OFF = (0, 0, 0)
ACCEPT = (0, 80, 0)
REJECT = (120, 0, 0)


class Leds:
    """Colours are set by command and written to the pixels only when something changed."""

    FLASH_MS = 300

    def __init__(self, pixels, seats, budget_ma=power.USB_BUDGET_MA):
        self.pixels = pixels
        self.seats = seats
        self.count = len(pixels)
        self.budget_ma = budget_ma
        self.colors = [OFF] * self.count
        self.frame = [OFF] * self.count  # what is to be shown, before scaling
        self.flash_color = OFF
        self.flash_until = 0
        self.flashing = False
        self.dirty = True
        self.drawn_ma = 0  # the estimate for what is shown now
        self.scaled = 0  # frames dimmed to stay within the budget

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
        frame = self.frame
        count = self.count
        for i in range(count):
            frame[i] = self.flash_color if self.flashing and i >= self.seats else self.colors[i]
        total = power.channel_sum(frame, count)
        factor = power.scale_256(total, count, self.budget_ma)
        pixels = self.pixels
        if factor >= 256:
            for i in range(count):
                pixels[i] = frame[i]
            self.drawn_ma = power.draw_ma(total, count)
        else:
            self.scaled += 1
            total = 0
            for i in range(count):
                color = frame[i]
                r = power.scaled(color[0], factor)
                g = power.scaled(color[1], factor)
                b = power.scaled(color[2], factor)
                total += r + g + b
                pixels[i] = (r, g, b)
            self.drawn_ma = power.draw_ma(total, count)
        pixels.write()

    def all_off(self):
        for i in range(self.count):
            self.colors[i] = OFF
        self.flashing = False
        self.dirty = True


def chain_layout(seat_pins, strip_pin, strip_pixels):
    """How the logical pixels (the seats', then the strip's) sit on their data pins.

    Each seat pixel has a data pin of its own, so an unplugged seat cable darkens only that seat; a seat
    whose pin is the strip's (seat 0, on the controller itself) comes first in the strip's chain.
    Returns (pins, lengths, which, offsets): the distinct pins in order, each chain's length, and for every
    logical pixel the index of its chain and its position in it."""
    pins = []
    lengths = []
    which = []
    offsets = []

    def chain(pin):
        if pin not in pins:
            pins.append(pin)
            lengths.append(0)
        return pins.index(pin)

    for pin in seat_pins:
        index = chain(pin)
        which.append(index)
        offsets.append(lengths[index])
        lengths[index] += 1
    index = chain(strip_pin)
    for _ in range(strip_pixels):
        which.append(index)
        offsets.append(lengths[index])
        lengths[index] += 1
    return pins, lengths, which, offsets


class Chains:
    """Several pixel chains (NeoPixel objects) seen as one, in the logical order of chain_layout."""

    def __init__(self, chains, which, offsets):
        self.chains = chains
        self.which = which
        self.offsets = offsets

    def __len__(self):
        return len(self.which)

    def __setitem__(self, index, color):
        self.chains[self.which[index]][self.offsets[index]] = color

    def __getitem__(self, index):
        return self.chains[self.which[index]][self.offsets[index]]

    def write(self):
        for chain in self.chains:
            chain.write()
