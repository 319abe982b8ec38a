"""The eight Shifting Stones faces as pictograms: each has its own shape and colour, so neither alone is needed."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pygame

from display.render.widgets import Colour, mix

# Colours after the printed stones, picked from a colour-blind-safe palette (Okabe–Ito) and kept apart in
# lightness too; the shapes carry the meaning on their own.
FACE_COLOURS: dict[str, Colour] = {
    "sun": (240, 196, 25),
    "moon": (120, 132, 150),
    "fish": (230, 159, 0),
    "bird": (213, 94, 0),
    "horse": (204, 121, 167),
    "boat": (0, 114, 178),
    "seed": (150, 100, 50),
    "tree": (0, 158, 115),
}
TILE: Colour = (238, 232, 218)
OUTLINE: Colour = (30, 30, 34)
GREY_SQUARE: Colour = (150, 150, 150)


def draw_face(surface: pygame.Surface, rect: pygame.Rect, face: str, *, tile: bool = True) -> None:
    """One stone showing `face`, filling `rect` (a light tile with the pictogram on it)."""
    side = min(rect.width, rect.height)
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    if tile:
        pygame.draw.rect(surface, TILE, box, border_radius=max(2, side // 8))
        pygame.draw.rect(surface, OUTLINE, box, width=max(1, side // 40), border_radius=max(2, side // 8))
    art = box.inflate(-side // 5, -side // 5)
    drawer = _DRAWERS.get(face)
    if drawer is None:
        pygame.draw.line(surface, OUTLINE, art.topleft, art.bottomright, max(1, side // 20))
        pygame.draw.line(surface, OUTLINE, art.topright, art.bottomleft, max(1, side // 20))
        return
    drawer(surface, art, FACE_COLOURS[face], max(1, side // 30))


def _poly(surface: pygame.Surface, colour: Colour, points: Sequence[tuple[float, float]], edge: int) -> None:
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, OUTLINE, points, edge)


def _sun(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    cx, cy = r.center
    outer, inner = r.width / 2, r.width * 0.3
    rays = []
    for k in range(16):
        a = math.pi * 2 * k / 16
        rad = outer if k % 2 == 0 else inner
        rays.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    _poly(surface, colour, rays, edge)
    pygame.draw.circle(surface, mix(colour, (255, 255, 255), 0.35), (cx, cy), round(r.width * 0.24))
    pygame.draw.circle(surface, OUTLINE, (cx, cy), round(r.width * 0.24), edge)


def _moon(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    cx, cy = r.center
    rad = r.width * 0.45
    # A crescent: the lit circle's outline from the outer arc and an inner arc set off to the right.
    outer = [(cx + rad * math.cos(a), cy + rad * math.sin(a))
             for a in _steps(math.radians(60), math.radians(300), 24)]
    inner_c = (cx + rad * 0.45, cy - rad * 0.05)
    inner_r = rad * 0.8
    inner = [(inner_c[0] + inner_r * math.cos(a), inner_c[1] + inner_r * math.sin(a))
             for a in _steps(math.radians(250), math.radians(110), 20)]
    _poly(surface, colour, outer + inner, edge)


def _fish(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    body = pygame.Rect(r.x, r.y + r.height * 0.22, r.width * 0.72, r.height * 0.56)
    tail = [(body.right - r.width * 0.06, r.centery), (r.right, r.y + r.height * 0.18),
            (r.right, r.bottom - r.height * 0.18)]
    _poly(surface, colour, tail, edge)
    pygame.draw.ellipse(surface, colour, body)
    pygame.draw.ellipse(surface, OUTLINE, body, edge)
    eye = (round(body.x + body.width * 0.25), round(body.y + body.height * 0.4))
    pygame.draw.circle(surface, OUTLINE, eye, max(2, r.width // 14))


def _bird(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    # Wings spread in a wide V over a round body, seen from below.
    w, h = r.width, r.height
    wings = [(r.x, r.y + h * 0.25), (r.x + w * 0.5, r.y + h * 0.55), (r.right, r.y + h * 0.25),
             (r.right - w * 0.1, r.y + h * 0.5), (r.x + w * 0.5, r.y + h * 0.8), (r.x + w * 0.1, r.y + h * 0.5)]
    _poly(surface, colour, wings, edge)
    head = (round(r.centerx), round(r.y + h * 0.5))
    pygame.draw.circle(surface, colour, head, round(w * 0.14))
    pygame.draw.circle(surface, OUTLINE, head, round(w * 0.14), edge)
    beak = [(r.centerx - w * 0.07, r.y + h * 0.62), (r.centerx + w * 0.07, r.y + h * 0.62), (r.centerx, r.y + h * 0.78)]
    _poly(surface, (250, 200, 60), beak, max(1, edge // 2))


def _horse(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    # A horse's head in profile, like a chess knight.
    w, h = r.width, r.height
    pts = [(0.32, 1.0), (0.40, 0.66), (0.12, 0.64), (0.0, 0.52), (0.04, 0.40), (0.30, 0.16), (0.36, 0.0),
           (0.46, 0.12), (0.62, 0.08), (0.88, 0.32), (1.0, 1.0)]
    _poly(surface, colour, [(r.x + x * w, r.y + y * h) for x, y in pts], edge)
    mane = [(r.x + x * w, r.y + y * h) for x, y in ((0.62, 0.08), (0.88, 0.32), (1.0, 1.0))]
    pygame.draw.lines(surface, mix(colour, (0, 0, 0), 0.45), False, mane, max(2, w // 10))
    pygame.draw.circle(surface, OUTLINE, (round(r.x + 0.36 * w), round(r.y + 0.3 * h)), max(2, w // 16))
    pygame.draw.circle(surface, OUTLINE, (round(r.x + 0.08 * w), round(r.y + 0.5 * h)), max(1, w // 30))


def _boat(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    w, h = r.width, r.height
    hull = [(r.x, r.y + h * 0.68), (r.right, r.y + h * 0.68), (r.right - w * 0.18, r.bottom),
            (r.x + w * 0.18, r.bottom)]
    _poly(surface, colour, hull, edge)
    mast_x = r.x + w * 0.5
    pygame.draw.line(surface, OUTLINE, (mast_x, r.y), (mast_x, r.y + h * 0.68), max(2, edge))
    sail = [(mast_x + w * 0.05, r.y + h * 0.05), (mast_x + w * 0.05, r.y + h * 0.6),
            (r.right - w * 0.05, r.y + h * 0.6)]
    _poly(surface, mix(colour, (255, 255, 255), 0.55), sail, edge)
    small = [(mast_x - w * 0.05, r.y + h * 0.2), (mast_x - w * 0.05, r.y + h * 0.6), (r.x + w * 0.12, r.y + h * 0.6)]
    _poly(surface, mix(colour, (255, 255, 255), 0.55), small, edge)


def _seed(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    # An almond-shaped seed with a sprout curling from its top.
    cx = r.centerx
    pts = []
    for a in _steps(0, 2 * math.pi, 36):
        x = math.sin(a) * r.width * 0.3
        y = -math.cos(a) * r.height * 0.36
        # Pointed at the top: squeeze the width towards the tip.
        squeeze = 0.55 + 0.45 * (1 - max(0.0, -math.cos(a)))
        pts.append((cx + x * squeeze, r.y + r.height * 0.6 + y))
    _poly(surface, colour, pts, edge)
    pygame.draw.arc(surface, (0, 120, 60), pygame.Rect(cx - r.width * 0.02, r.y, r.width * 0.35, r.height * 0.35),
                    math.radians(90), math.radians(220), max(2, edge * 2))


def _tree(surface: pygame.Surface, r: pygame.Rect, colour: Colour, edge: int) -> None:
    w, h = r.width, r.height
    trunk = pygame.Rect(r.centerx - w * 0.08, r.y + h * 0.75, w * 0.16, h * 0.25)
    pygame.draw.rect(surface, (110, 70, 40), trunk)
    pygame.draw.rect(surface, OUTLINE, trunk, edge)
    for k, (top, bottom, half) in enumerate(((0.0, 0.45, 0.3), (0.2, 0.62, 0.4), (0.38, 0.8, 0.5))):
        tier = [(r.centerx, r.y + h * top), (r.centerx + w * half, r.y + h * bottom),
                (r.centerx - w * half, r.y + h * bottom)]
        _poly(surface, mix(colour, (0, 0, 0), 0.1 * k), tier, edge)


def _steps(start: float, stop: float, count: int) -> list[float]:
    return [start + (stop - start) * i / (count - 1) for i in range(count)]


_DRAWERS = {"sun": _sun, "moon": _moon, "fish": _fish, "bird": _bird, "horse": _horse, "boat": _boat,
            "seed": _seed, "tree": _tree}


def draw_pattern(surface: pygame.Surface, rect: pygame.Rect, rows: Sequence[Sequence[Any]]) -> pygame.Rect:
    """A pattern card's squares: faces where they must match, grey where any stone will do."""
    if not rows or not rows[0]:
        return pygame.Rect(rect.x, rect.y, 0, 0)
    n_rows, n_cols = len(rows), max(len(r) for r in rows)
    cell = max(4, min(rect.width // n_cols, rect.height // n_rows))
    box = pygame.Rect(0, 0, cell * n_cols, cell * n_rows)
    box.center = rect.center
    for y, row in enumerate(rows):
        for x, face in enumerate(row):
            square = pygame.Rect(box.x + x * cell, box.y + y * cell, cell, cell).inflate(-1, -1)
            if face in _DRAWERS:
                draw_face(surface, square, str(face))
            else:
                pygame.draw.rect(surface, GREY_SQUARE, square, border_radius=max(1, cell // 8))
    return box
