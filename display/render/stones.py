"""The eight Shifting Stones faces as the shared pictograms: own shape and colour each, so neither alone is needed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from companion import pictograms
from display.render.pictograms import draw_pictogram
from display.render.widgets import Colour

# The colours live with the pictograms (companion.pictograms), shared with the phone and host pages.
FACE_COLOURS: dict[str, Colour] = dict(pictograms.STONE_COLOURS)
TILE: Colour = (238, 232, 218)
OUTLINE: Colour = (30, 30, 34)
GREY_SQUARE: Colour = (150, 150, 150)
_FACES = frozenset(pictograms.names("stone"))


def draw_face(surface: pygame.Surface, rect: pygame.Rect, face: str, *, tile: bool = True) -> None:
    """One stone showing `face`, filling `rect` (a light tile with the pictogram on it)."""
    side = min(rect.width, rect.height)
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    if tile:
        pygame.draw.rect(surface, TILE, box, border_radius=max(2, side // 8))
        pygame.draw.rect(surface, OUTLINE, box, width=max(1, side // 40), border_radius=max(2, side // 8))
    art = box.inflate(-side // 5, -side // 5)
    if face not in _FACES or not draw_pictogram(surface, art, "stone", face):
        pygame.draw.line(surface, OUTLINE, art.topleft, art.bottomright, max(1, side // 20))
        pygame.draw.line(surface, OUTLINE, art.topright, art.bottomleft, max(1, side // 20))


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
            if face in _FACES:
                draw_face(surface, square, str(face))
            else:
                pygame.draw.rect(surface, GREY_SQUARE, square, border_radius=max(1, cell // 8))
    return box
