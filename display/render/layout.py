"""Screen layouts: where the header, the game, the ticker and the feedback go at 1920×1080, 1280×720 and 800×480."""

from __future__ import annotations

import dataclasses

import pygame

# The sizes the display is designed and tested for; any other size uses the nearest design scaled.
SIZES: tuple[tuple[int, int], ...] = ((1920, 1080), (1280, 720), (800, 480))
DESIGN = (1280, 720)


@dataclasses.dataclass(frozen=True)
class Layout:
    """Rectangles of one screen size; lengths in the design are for 1280×720 and scale with the screen."""

    size: tuple[int, int]
    scale: float
    compact: bool  # the 800×480 touchscreen: fewer details, bigger touch targets relative to the screen
    header: pygame.Rect
    body: pygame.Rect
    ticker: pygame.Rect
    feedback: pygame.Rect
    gap: int

    @property
    def screen(self) -> pygame.Rect:
        return pygame.Rect(0, 0, *self.size)

    @property
    def footer(self) -> pygame.Rect:
        return self.ticker.union(self.feedback)


def parse_size(text: str) -> tuple[int, int]:
    """'1280x720' into (1280, 720)."""
    w, _, h = text.lower().partition("x")
    try:
        size = (int(w), int(h))
    except ValueError:
        raise ValueError(f"a size is WIDTHxHEIGHT, e.g. 1280x720, not {text!r}") from None
    if size[0] < 320 or size[1] < 240:
        raise ValueError(f"{text} is too small for the table display (at least 320x240)")
    return size


def layout_for(size: tuple[int, int]) -> Layout:
    w, h = size
    scale = min(w / DESIGN[0], h / DESIGN[1])
    compact = w < 1000 or h < 600
    if compact:
        # Text at 800×480 would be tiny at the plain 0.625 scale; the compact layout shows less, larger.
        scale = max(scale, 0.72)
    gap = max(4, round(8 * scale))
    header_h = round((44 if not compact else 40) * scale)
    footer_h = round((92 if not compact else 66) * scale)
    header = pygame.Rect(gap, gap, w - 2 * gap, header_h)
    footer_y = h - gap - footer_h
    body = pygame.Rect(gap, header.bottom + gap, w - 2 * gap, footer_y - header.bottom - 2 * gap)
    feedback_w = round((w - 3 * gap) * (0.38 if not compact else 0.42))
    ticker = pygame.Rect(gap, footer_y, w - 3 * gap - feedback_w, footer_h)
    feedback = pygame.Rect(ticker.right + gap, footer_y, feedback_w, footer_h)
    return Layout(size, scale, compact, header, body, ticker, feedback, gap)


def split_columns(rect: pygame.Rect, shares: list[float], gap: int) -> list[pygame.Rect]:
    """`rect` cut into columns with widths in proportion to `shares`."""
    total = sum(shares) or 1
    room = rect.width - gap * (len(shares) - 1)
    out = []
    x = rect.x
    for i, share in enumerate(shares):
        w = room - (x - rect.x - gap * i) if i == len(shares) - 1 else round(room * share / total)
        out.append(pygame.Rect(x, rect.y, w, rect.height))
        x += w + gap
    return out


def split_rows(rect: pygame.Rect, shares: list[float], gap: int) -> list[pygame.Rect]:
    """`rect` cut into rows with heights in proportion to `shares`."""
    total = sum(shares) or 1
    room = rect.height - gap * (len(shares) - 1)
    out = []
    y = rect.y
    for i, share in enumerate(shares):
        h = room - (y - rect.y - gap * i) if i == len(shares) - 1 else round(room * share / total)
        out.append(pygame.Rect(rect.x, y, rect.width, h))
        y += h + gap
    return out


def grid_cells(rect: pygame.Rect, count: int, gap: int, min_aspect: float = 0.0) -> list[pygame.Rect]:
    """`count` equal cells filling `rect` in the most square-ish grid."""
    if count <= 0:
        return []
    best: tuple[float, int] | None = None
    for cols in range(1, count + 1):
        rows = -(-count // cols)
        cw = (rect.width - gap * (cols - 1)) / cols
        ch = (rect.height - gap * (rows - 1)) / rows
        if cw <= 0 or ch <= 0:
            continue
        score = min(cw, ch * max(1.0, min_aspect or 1.0))
        if best is None or score > best[0]:
            best = (score, cols)
    cols = best[1] if best else count
    rows = -(-count // cols)
    cw = (rect.width - gap * (cols - 1)) // cols
    ch = (rect.height - gap * (rows - 1)) // rows
    return [
        pygame.Rect(rect.x + (i % cols) * (cw + gap), rect.y + (i // cols) * (ch + gap), cw, ch) for i in range(count)
    ]
