"""Drawing helpers shared by every scene: fitted text that records overflow, panels, badges, QR codes, charts."""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

import pygame

from display.i18n import language, text_settings, western_digits
from display.render.scripttext import ShapedFont, TextStyle, style_for

FONTS = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = FONTS / "DejaVuSansCondensed.ttf"
BOLD = FONTS / "DejaVuSansCondensed-Bold.ttf"

Colour = tuple[int, int, int]


def text_style() -> TextStyle:
    """How the display's language is drawn (its script's font, direction, digits); Latin when the font is missing."""
    return _style(text_settings())


@functools.cache
def _style(settings: tuple[str, str, str]) -> TextStyle:
    script, direction, digits = settings
    return style_for(script, direction, digits, REGULAR, BOLD) or TextStyle(latin_regular=REGULAR, latin_bold=BOLD)

# A calm dark theme: light text on dark panels reads well across a room.
BACKGROUND: Colour = (22, 26, 32)
PANEL: Colour = (36, 42, 52)
PANEL_EDGE: Colour = (64, 74, 90)
TEXT: Colour = (236, 238, 242)
MUTED: Colour = (160, 168, 182)
ACCENT: Colour = (250, 204, 21)
GOOD: Colour = (34, 197, 94)
BAD: Colour = (239, 68, 68)
HIGHLIGHT: Colour = (255, 255, 255)

# Text never shrinks below this share of its asked size before it counts as overflowing.
MIN_SHRINK = 0.7
# Rendered text images kept for reuse: a 1080p table shows a few hundred texts, most the same frame after frame
# (city names, plant facts, labels), and rendering (shaping, for other scripts) is most of a frame's cost.
TEXT_CACHE_SIZE = 2048
# Static layers kept, least recently used dropped first: the frames of a few layouts (with and without the checklist
# column, a one- or two-line sentence...: 8 MB each at 1080p), the map, the income table. Bounded in bytes, so a
# small screen keeps more layouts than a large one and a Pi's memory is not filled by a long evening.
LAYER_CACHE_BYTES = 48 * 1024 * 1024
# Sprites kept, least recently used dropped first: small drawings (a plant card, a bean card, a field, a stone, a
# pattern card, a row of resource tokens, a player's row), from a few KB to some 200 KB each at 1080p; a table
# shows about a hundred, and a game goes through a few hundred. Bounded in bytes, as the layers are.
SPRITE_CACHE_BYTES = 32 * 1024 * 1024


@dataclasses.dataclass(frozen=True)
class Frame:
    """A panel's rounded background and edge (radius and scaled widths in design units).

    Panels whose draw function is marked `@framed(frame)` get their frame from the scene stack's frames layer,
    painted once per layout: a full frame is one blit of that layer instead of a fill and dozens of rounded
    rectangles, and a changed panel is cleared by blitting its part of it.
    """

    fill: Colour = PANEL
    edge: Colour | None = PANEL_EDGE
    radius: float = 8
    width: float = 1  # the edge's width: in pixels, or in design units when `scaled`
    scaled: bool = False


PANEL_FRAME = Frame()
# A panel without an edge: the header, a player's panel (whose outline, when it is their turn, is drawn over it).
PLAIN_FRAME = Frame(edge=None)


def framed(frame: Frame) -> Callable[[Any], Any]:
    """Marks a panel's draw function as drawing `frame` over its whole rectangle first (with `draw_frame`)."""

    def mark(draw: Any) -> Any:
        draw.frame = frame
        return draw

    return mark


def draw_frame(surface: pygame.Surface, rect: pygame.Rect, painter: Painter, frame: Frame = PANEL_FRAME) -> None:
    """The rounded background and edge of `frame` over `rect`, unless the frames layer already put it there."""
    if painter.prepainted is not None and painter.prepainted == (tuple(rect), frame):
        return
    radius = painter.px(frame.radius)
    pygame.draw.rect(surface, frame.fill, rect, border_radius=radius)
    if frame.edge is not None:
        width = painter.px(frame.width) if frame.scaled else max(1, int(frame.width))
        pygame.draw.rect(surface, frame.edge, rect, width=width, border_radius=radius)


@dataclasses.dataclass(frozen=True)
class Overflow:
    """Text that did not fit its rectangle, even shrunk: a layout bug the tests look for."""

    text: str
    rect: tuple[int, int, int, int]
    needed: tuple[int, int]


def parse_colour(value: Any, default: Colour = (136, 136, 136)) -> Colour:
    """'#rrggbb' or a list of three ints into an RGB tuple."""
    if isinstance(value, str) and value.startswith("#") and len(value) == 7:
        try:
            return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        except ValueError:
            return default
    if isinstance(value, list | tuple) and len(value) == 3 and all(isinstance(c, int) for c in value):
        return (value[0], value[1], value[2])
    return default


def mix(a: Colour, b: Colour, t: float) -> Colour:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def readable_on(colour: Colour) -> Colour:
    """Black or white, whichever reads better on `colour`."""
    luminance = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return (20, 20, 20) if luminance > 150 else (250, 250, 250)


class Painter:
    """Fonts by size, text fitted into rectangles, and a record of every text that overflowed."""

    def __init__(self, scale: float = 1.0) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.scale = scale
        self._fonts: dict[tuple[int, bool], Any] = {}
        self.overflows: list[Overflow] = []
        self.drawn: list[str] = []  # every text drawn, as shown (the language checks look for missing glyphs)
        self.shrunk: list[str] = []  # texts drawn smaller than asked, to fit their box (the tests look for labels)
        self.style = text_style()
        self._images: OrderedDict[tuple[str, Any, tuple[int, ...]], pygame.Surface] = OrderedDict()
        self.renders = 0  # texts actually rendered (not taken from the cache)
        self._layers: OrderedDict[tuple[Hashable, tuple[int, int]], pygame.Surface] = OrderedDict()
        self.layers_drawn = 0  # static layers painted (not taken from the cache)
        self._sprites: OrderedDict[tuple[Hashable, tuple[int, int], Colour | None], pygame.Surface] = OrderedDict()
        self.sprites_drawn = 0  # sprites painted (not taken from the cache)
        self._sprite_bytes = 0
        # False draws everything directly, every time (no layers, no sprites): the tests compare the two pictures.
        self.cache_layers = True
        # The panel being drawn whose frame the frames layer already painted: (its rectangle, its frame).
        self.prepainted: tuple[tuple[int, ...], Frame] | None = None
        # The language this painter's fonts, texts and layers are for: another one needs a new painter.
        self.language = (language(), western_digits())

    def font(self, size: float, bold: bool = False) -> pygame.font.Font:
        px = max(6, round(size))
        key = (px, bold)
        if key not in self._fonts:
            if self.style.plain:
                self._fonts[key] = pygame.font.Font(str(BOLD if bold else REGULAR), px)
            else:
                # Another script, right-to-left text or other digits: runs per font, shaped (see scripttext).
                self._fonts[key] = ShapedFont(self.style, px, bold)
        return self._fonts[key]

    @property
    def rtl(self) -> bool:
        return self.style.direction == "rtl"

    def px(self, value: float) -> int:
        """A length in design units (1280×720) in pixels at this scale."""
        return max(1, round(value * self.scale))

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        rect: pygame.Rect,
        size: float,
        colour: Colour = TEXT,
        *,
        bold: bool = False,
        align: str = "left",
        valign: str = "center",
        ellipsis: bool = False,
    ) -> pygame.Rect:
        """Draw one line of text inside `rect`, shrinking it to fit; returns the rectangle drawn.

        Text that cannot fit even shrunk is cut with an ellipsis; that counts as an overflow unless the caller
        asked for `ellipsis` (a ticker line may be cut, a score may not).
        """
        text = text.replace("\n", " ")
        if not text or rect.width <= 0 or rect.height <= 0:
            return pygame.Rect(rect.x, rect.y, 0, 0)
        self.drawn.append(text)
        size = size * self.scale
        font = self.font(size, bold)
        width, height = font.size(text)
        if width > rect.width or height > rect.height + 2:
            self.shrunk.append(text)
            floor = max(6, size * MIN_SHRINK)
            fits = size
            while fits > floor and (width > rect.width or height > rect.height + 2):
                fits = max(floor, fits * 0.92)
                font = self.font(fits, bold)
                width, height = font.size(text)
            if width > rect.width or height > rect.height + 2:
                if not ellipsis:
                    self.overflows.append(Overflow(text, tuple(rect), (width, height)))  # type: ignore[arg-type]
                text = _cut(font, text, rect.width)
                width, height = font.size(text)
        image = self.image(font, text, colour)
        if self.rtl and align == "left":
            align = "right"  # right-to-left text starts at the right edge of its box
        x = {"left": rect.x, "center": rect.centerx - width // 2, "right": rect.right - width}[align]
        y = {"top": rect.y, "center": rect.centery - height // 2, "bottom": rect.bottom - height}[valign]
        clip = surface.get_clip()
        surface.set_clip(rect.inflate(0, 4).clip(clip) if clip else rect)
        drawn = surface.blit(image, (x, y))
        surface.set_clip(clip)
        return drawn

    def image(self, font: Any, text: str, colour: Colour) -> pygame.Surface:
        """`text` rendered in `font` (one of this painter's), from the cache when it was drawn before."""
        key = (text, font, tuple(colour))
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
            return image
        image = font.render(text, True, colour)
        self.renders += 1
        self._images[key] = image
        if len(self._images) > TEXT_CACHE_SIZE:
            self._images.popitem(last=False)
        return image

    def layer(self, key: Hashable, size: tuple[int, int], draw: Callable[[pygame.Surface], None]) -> pygame.Surface:
        """A static layer: `draw` paints it once on a surface of `size` (the screen's background beneath), and
        later frames blit it while `key` and the size stay the same (a map, a frame, a table of numbers)."""
        full = (key, size)
        layer = self._layers.get(full)
        if layer is None:
            layer = pygame.Surface(size)
            layer.fill(BACKGROUND)
            draw(layer)
            if not self.cache_layers:
                return layer
            self.layers_drawn += 1
            self._layers[full] = layer
            while len(self._layers) > 1 and sum(map(_bytes, self._layers.values())) > LAYER_CACHE_BYTES:
                self._layers.popitem(last=False)
        else:
            self._layers.move_to_end(full)
        return layer

    def sprite(self, surface: pygame.Surface, rect: pygame.Rect, key: Hashable,
               draw: Callable[[pygame.Surface, pygame.Rect], None], backdrop: Colour | None = None) -> None:
        """Draw a small static picture at `rect`: `draw(target, box)` paints it once on a transparent surface of
        the rectangle's size (what it leaves untouched, such as rounded corners, stays see-through), and later calls
        with the same `key` and size blit it. Without caching, `draw` paints straight onto `surface`.

        With a `backdrop` (the plain colour the picture always sits on) it is painted on that colour instead, and
        blitted without per-pixel alpha: two to four times quicker for a large one, such as a field."""
        if not self.cache_layers:
            draw(surface, rect)
            return
        full = (key, rect.size, backdrop)
        image = self._sprites.get(full)
        box = pygame.Rect(0, 0, rect.width, rect.height)
        if image is None:
            if backdrop is None:
                image = pygame.Surface(rect.size, pygame.SRCALPHA, 32)
            else:
                # One spare column: on x86, SDL copies rows whose addresses and widths are all multiples of 16 bytes
                # with streaming stores, some ten times slower for a sprite this size than the plain copy it uses
                # otherwise (a 236-pixel stone: 90 µs instead of 8); the spare column keeps the rows off that path.
                image = pygame.Surface((rect.width + 1, rect.height))
                image.fill(backdrop)
            draw(image, box)
            self.sprites_drawn += 1
            self._sprites[full] = image
            self._sprite_bytes += _bytes(image)
            while len(self._sprites) > 1 and self._sprite_bytes > SPRITE_CACHE_BYTES:
                self._sprite_bytes -= _bytes(self._sprites.popitem(last=False)[1])
        else:
            self._sprites.move_to_end(full)
        surface.blit(image, rect.topleft, box)

    def lines(
        self,
        surface: pygame.Surface,
        lines: Sequence[tuple[str, Colour]],
        rect: pygame.Rect,
        size: float,
        *,
        newest_last: bool = True,
    ) -> None:
        """A column of single lines (the ticker): the newest are kept when there is no room for all."""
        line_h = self.font(size * self.scale).get_linesize()
        room = max(0, rect.height // max(1, line_h))
        shown = list(lines)[-room:] if newest_last else list(lines)[:room]
        for i, (line, colour) in enumerate(shown):
            self.text(surface, line, pygame.Rect(rect.x, rect.y + i * line_h, rect.width, line_h), size, colour,
                      ellipsis=True)

    def wrap(self, text: str, width: int, size: float, bold: bool = False) -> list[str]:
        """Words of `text` broken into lines no wider than `width` at `size`."""
        font = self.font(size * self.scale, bold)
        out: list[str] = []
        line = ""
        for word in text.split():
            trial = f"{line} {word}" if line else word
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                out.append(line)
                line = word
        if line:
            out.append(line)
        return out

    def paragraph(
        self, surface: pygame.Surface, text: str, rect: pygame.Rect, size: float, colour: Colour = TEXT
    ) -> None:
        """Wrapped text; lines past the bottom of `rect` count as overflow."""
        line_h = self.font(size * self.scale).get_linesize()
        rows = self.wrap(text, rect.width, size)
        room = max(1, rect.height // line_h)
        if len(rows) > room:
            self.overflows.append(Overflow(text, tuple(rect), (rect.width, len(rows) * line_h)))  # type: ignore[arg-type]
            rows = rows[:room]
        for i, row in enumerate(rows):
            self.text(surface, row, pygame.Rect(rect.x, rect.y + i * line_h, rect.width, line_h), size, colour)

    def line_height(self, size: float, bold: bool = False) -> int:
        return self.font(size * self.scale, bold).get_linesize()


def _bytes(surface: pygame.Surface) -> int:
    """The memory a surface's pixels take."""
    return surface.get_bytesize() * surface.get_width() * surface.get_height()


def _cut(font: pygame.font.Font, text: str, width: int) -> str:
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid] + "…")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…" if lo else ""


def panel(surface: pygame.Surface, rect: pygame.Rect, painter: Painter, title: str | None = None,
          colour: Colour = PANEL) -> pygame.Rect:
    """A rounded panel with an optional title; returns the inner rectangle left for content."""
    draw_frame(surface, rect, painter, PANEL_FRAME if colour == PANEL else Frame(colour))
    if title:
        title_h = painter.line_height(15, True)
        pad = rect.inflate(-2 * painter.px(8), -2 * painter.px(8))
        painter.text(surface, title, pygame.Rect(pad.x, pad.y, pad.width, title_h), 15, MUTED, bold=True)
    return panel_inner(rect, painter, bool(title))


def panel_inner(rect: pygame.Rect, painter: Painter, titled: bool = False) -> pygame.Rect:
    """The rectangle `panel` leaves for content (under the title when there is one)."""
    pad = painter.px(8)
    inner = rect.inflate(-2 * pad, -2 * pad)
    if titled:
        title_h = painter.line_height(15, True)
        inner = pygame.Rect(inner.x, inner.y + title_h + painter.px(2), inner.width,
                            max(0, inner.height - title_h - painter.px(2)))
    return inner


def badge(surface: pygame.Surface, rect: pygame.Rect, painter: Painter, text: str, colour: Colour,
          size: float = 14, outline: Colour | None = None) -> None:
    """A filled rounded label, e.g. a player's name on their colour."""
    pygame.draw.rect(surface, colour, rect, border_radius=painter.px(6))
    if outline:
        pygame.draw.rect(surface, outline, rect, width=max(2, painter.px(3)), border_radius=painter.px(6))
    painter.text(surface, text, rect.inflate(-painter.px(8), 0), size, readable_on(colour), bold=True, align="center")


def seat_marker(surface: pygame.Surface, centre: tuple[int, int], radius: int, colour: Colour, seat: int) -> None:
    """A player's token: their colour with the seat number, so colour is never the only cue."""
    pygame.draw.circle(surface, colour, centre, radius)
    pygame.draw.circle(surface, (15, 15, 15), centre, radius, width=max(1, radius // 6))
    if radius >= 6:
        image = _marker_number(text_style(), max(6, int(radius * 1.3)), seat, readable_on(colour))
        surface.blit(image, image.get_rect(center=centre))


_MARKER_FONTS: dict[tuple[TextStyle, int], Any] = {}
_MARKER_IMAGES: dict[tuple[TextStyle, int, int, Colour], pygame.Surface] = {}


def _marker_number(style: TextStyle, px: int, seat: int, colour: Colour) -> pygame.Surface:
    """A seat number's image, rendered once per language, size and colour (markers are drawn by the dozen)."""
    key = (style, px, seat, colour)
    image = _MARKER_IMAGES.get(key)
    if image is None:
        if len(_MARKER_IMAGES) > 512:
            _MARKER_IMAGES.clear()
        image = _MARKER_IMAGES[key] = _marker_font(px).render(str(seat + 1), True, colour)
    return image


def _marker_font(px: int) -> Any:
    """The seat number's font: the display's Latin bold, or a shaped one when the language writes other digits."""
    style = text_style()
    key = (style, px)
    if key not in _MARKER_FONTS:
        _MARKER_FONTS[key] = pygame.font.Font(str(BOLD), px) if style.plain else ShapedFont(style, px, bold=True)
    return _MARKER_FONTS[key]


def qr_code(surface: pygame.Surface, rect: pygame.Rect, url: str) -> pygame.Rect:
    """The QR code of `url`, as large as fits in `rect`, dark modules on a white quiet zone."""
    import segno

    code = segno.make(url, error="m")
    matrix = [list(row) for row in code.matrix]
    modules = len(matrix) + 8  # four modules of quiet zone each side
    cell = max(1, min(rect.width, rect.height) // modules)
    side = cell * modules
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    pygame.draw.rect(surface, (255, 255, 255), box)
    for y, row in enumerate(matrix):
        for x, on in enumerate(row):
            if on:
                surface.fill((0, 0, 0), (box.x + (x + 4) * cell, box.y + (y + 4) * cell, cell, cell))
    return box


def bar_chart(
    surface: pygame.Surface,
    rect: pygame.Rect,
    painter: Painter,
    labels: Sequence[str],
    stacks: Sequence[Sequence[float]],
    parts: Sequence[str],
    colours: Sequence[Colour],
    notes: Sequence[str] = (),
) -> None:
    """Horizontal stacked bars, one per label; `parts` names the segments (the legend); a note follows a bar."""
    if not labels:
        return
    legend_h = painter.line_height(13) if len(parts) > 1 else 0
    label_w = min(rect.width // 3, painter.px(150))
    total_w = painter.px(56)
    note_w = min(rect.width // 3, painter.px(260)) if any(notes) else 0
    rows = pygame.Rect(rect.x, rect.y, rect.width, rect.height - legend_h)
    bar_h = min(painter.px(44), rows.height // len(labels))
    top = max((sum(s) for s in stacks), default=0) or 1
    span = rows.width - label_w - total_w - note_w
    for i, (label, stack) in enumerate(zip(labels, stacks)):
        y = rows.y + i * bar_h
        painter.text(surface, label, pygame.Rect(rows.x, y, label_w - painter.px(6), bar_h), 14, TEXT)
        x = rows.x + label_w
        for j, value in enumerate(stack):
            w = round(span * max(0.0, value) / top)
            if w > 0:
                seg = pygame.Rect(x, y + bar_h // 6, w, bar_h - bar_h // 3)
                pygame.draw.rect(surface, colours[j % len(colours)], seg)
                pygame.draw.rect(surface, BACKGROUND, seg, width=1)
                if w > painter.px(24) and value:
                    painter.text(surface, _fmt(value), seg, 12, readable_on(colours[j % len(colours)]),
                                 align="center", ellipsis=True)
                x += w
        painter.text(surface, _fmt(sum(stack)), pygame.Rect(x + painter.px(6), y, total_w, bar_h), 15, TEXT, bold=True)
        if i < len(notes) and notes[i]:
            painter.text(surface, notes[i], pygame.Rect(rows.right - note_w, y, note_w, bar_h), 13, MUTED,
                         align="right")
    if legend_h:
        x = rect.x
        y = rect.bottom - legend_h
        for j, part in enumerate(parts):
            sw = pygame.Rect(x, y + legend_h // 4, legend_h // 2, legend_h // 2)
            pygame.draw.rect(surface, colours[j % len(colours)], sw)
            w = painter.font(13 * painter.scale).size(part)[0] + painter.px(6)
            painter.text(surface, part, pygame.Rect(sw.right + painter.px(4), y, w, legend_h), 13, MUTED)
            x = sw.right + painter.px(4) + w + painter.px(10)


# Dash patterns per series so lines stay apart without colour: solid, long dash, short dash, dots...
DASHES: tuple[tuple[int, int], ...] = ((1, 0), (8, 4), (4, 4), (2, 3), (10, 3), (6, 2), (3, 6))


def line_chart(
    surface: pygame.Surface,
    rect: pygame.Rect,
    painter: Painter,
    title: str,
    xs: Sequence[int],
    series: Sequence[Sequence[float]],
    colours: Sequence[Colour],
) -> None:
    """One line per player over the rounds, with the axis range; each line has its own dash and end marker."""
    inner = panel(surface, rect, painter, title)
    if not xs or not series:
        return
    top = max((max(s) for s in series if s), default=1) or 1
    axis_w = painter.px(40)
    plot = pygame.Rect(inner.x + axis_w, inner.y + painter.px(4), inner.width - axis_w - painter.px(18),
                       inner.height - painter.line_height(12) - painter.px(6))
    if plot.width < 10 or plot.height < 10:
        return
    pygame.draw.line(surface, PANEL_EDGE, plot.bottomleft, plot.bottomright)
    pygame.draw.line(surface, PANEL_EDGE, plot.bottomleft, plot.topleft)
    lh = painter.line_height(12)
    painter.text(surface, _fmt(top), pygame.Rect(inner.x, plot.y - lh // 2, axis_w - 4, lh), 12, MUTED, align="right")
    painter.text(surface, "0", pygame.Rect(inner.x, plot.bottom - lh // 2, axis_w - 4, lh), 12, MUTED, align="right")
    first, last = xs[0], xs[-1]
    under = pygame.Rect(plot.x, plot.bottom + 2, plot.width, lh)
    painter.text(surface, str(first), under, 12, MUTED, align="left")
    if last != first:
        painter.text(surface, str(last), under, 12, MUTED, align="right")
    span = max(1, last - first)
    for k, values in enumerate(series):
        points = [
            (plot.x + round(plot.width * (x - first) / span), plot.bottom - round(plot.height * v / top))
            for x, v in zip(xs, values)
        ]
        colour = colours[k % len(colours)]
        width = max(2, painter.px(3))
        if len(points) >= 2:
            _dashed(surface, colour, points, width, DASHES[k % len(DASHES)], painter.scale)
        if points:
            seat_marker(surface, points[-1], max(5, painter.px(8)), colour, k)


def _dashed(surface: pygame.Surface, colour: Colour, points: list[tuple[int, int]], width: int,
            dash: tuple[int, int], scale: float) -> None:
    on, off = dash
    if off == 0:
        pygame.draw.lines(surface, colour, False, points, width)
        return
    on_px, off_px = max(2, on * 2 * scale), max(2, off * 2 * scale)
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
        t = 0.0
        while t < length:
            t1 = min(length, t + on_px)
            a = (x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length)
            b = (x0 + (x1 - x0) * t1 / length, y0 + (y1 - y0) * t1 / length)
            pygame.draw.line(surface, colour, a, b, width)
            t = t1 + off_px


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
