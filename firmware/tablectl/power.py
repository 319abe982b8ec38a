"""The LEDs' current budget: what a set of pixel colours draws, and the scale that keeps it within the budget.

Shared by the board (every frame it shows is scaled) and the host (which designs its lights within the budget
and checks that the board shows none above it). A WS2812B draws about 20 mA per colour channel at full
brightness, in proportion to the value, plus about 1 mA when dark.
"""

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython

    def const(value):
        return value


MA_PER_CHANNEL = const(20)  # one channel at 255
IDLE_MA = const(1)  # one pixel, dark
USB_BUDGET_MA = const(350)  # every LED together, powered from the Pi's USB port
SUPPLY_BUDGET_MA = const(2000)  # with the separate 5 V pixel supply (2-3 A): a margin below 2.5 A


def channel_sum(colors, count):
    """The sum of every channel value of colors[:count] ((r, g, b) tuples)."""
    total = 0
    for i in range(count):
        color = colors[i]
        total += color[0] + color[1] + color[2]
    return total


def draw_ma(total, count):
    """Milliamps drawn by `count` pixels whose channel values add up to `total`, rounded up."""
    return count * IDLE_MA + (total * MA_PER_CHANNEL + 254) // 255


def scale_256(total, count, budget_ma):
    """The factor (out of 256) every channel is multiplied by so the pixels draw at most `budget_ma`."""
    room = budget_ma - count * IDLE_MA
    if room <= 0:
        return 0
    # total * 20 / 255 * f / 256 <= room, channels rounded down after scaling
    if total * MA_PER_CHANNEL <= room * 255:
        return 256
    return (room * 255 * 256) // (total * MA_PER_CHANNEL)


def scaled(value, factor):
    """One channel value scaled by factor/256 (rounded down, so the budget holds)."""
    return (value * factor) >> 8
