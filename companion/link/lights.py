"""The board's lights designed within the LEDs' current budget: the host's colours scaled before they are sent.

The firmware scales every frame it shows to the budget (firmware/tablectl/power.py); the host does the same
arithmetic first, counting the worst flash over the strip, so what it sends is shown as sent and a flash never
dims the seat lamps. The budget is the board's (its hello says it), else the USB one.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.link import firmware

_power = firmware.module("power")
_leds = firmware.module("leds")
USB_BUDGET_MA: int = _power.USB_BUDGET_MA
FLASHES: tuple[tuple[int, int, int], ...] = (_leds.ACCEPT, _leds.REJECT)

Color = tuple[int, int, int]


def rgb(text: str) -> Color:
    value = int(text, 16)
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


def hexed(color: Color) -> str:
    return "".join(f"{part:02x}" for part in color)


def draw_ma(colors: Sequence[Color]) -> int:
    """What these pixels draw together, by the firmware's estimate."""
    return int(_power.draw_ma(_power.channel_sum(list(colors), len(colors)), len(colors)))


def worst_frame(seats: Sequence[Color], strip: Sequence[Color]) -> list[Color]:
    """The frame that draws most of those these lamps can show: the strip as it is, or under a flash."""
    flashes = [[flash] * len(strip) for flash in FLASHES]
    strip_worst = max([list(strip), *flashes], key=lambda colors: _power.channel_sum(colors, len(colors)))
    return [*seats, *strip_worst]


def within_budget(seats: Sequence[str], strip: str | Sequence[str], strip_pixels: int = 16,
                  budget_ma: int | None = None) -> tuple[list[str], str | list[str]]:
    """The seat lamps and the strip (one colour or one per pixel), dimmed by one factor when, with the worst
    flash over the strip, they would draw more than the budget."""
    budget = budget_ma or USB_BUDGET_MA
    seat_rgb = [rgb(c) for c in seats]
    strip_rgb = [rgb(strip)] * strip_pixels if isinstance(strip, str) else [rgb(c) for c in strip]
    frame = worst_frame(seat_rgb, strip_rgb)
    factor = _power.scale_256(_power.channel_sum(frame, len(frame)), len(frame), budget)
    if factor >= 256:
        return list(seats), strip if isinstance(strip, str) else list(strip)
    # The flash is the firmware's and is not scaled here: dim ours until the worst frame fits.
    while factor > 0:
        dim = [tuple(_power.scaled(part, factor) for part in color) for color in seat_rgb]
        dim_strip = [tuple(_power.scaled(part, factor) for part in color) for color in strip_rgb]
        if draw_ma(worst_frame(dim, dim_strip)) <= budget:  # type: ignore[arg-type]
            out_seats = [hexed(c) for c in dim]  # type: ignore[arg-type]
            out_strip = [hexed(c) for c in dim_strip]  # type: ignore[arg-type]
            return out_seats, out_strip[0] if isinstance(strip, str) else out_strip
        factor -= 4
    return ["000000"] * len(seat_rgb), "000000" if isinstance(strip, str) else ["000000"] * len(strip_rgb)
