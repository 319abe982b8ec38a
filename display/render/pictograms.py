"""The shared pictograms (companion.pictograms) rasterised for the table display by SDL_image's SVG loader."""

from __future__ import annotations

import io
from functools import lru_cache

import pygame

from companion import pictograms


@lru_cache(maxsize=512)
def pictogram_surface(kind: str, name: str, side: int, fill: str | None = None) -> pygame.Surface | None:
    """The pictogram `kind/name` as a `side`×`side` surface with transparency; None when there is no such picture."""
    try:
        text = pictograms.svg(kind, name, fill)
    except KeyError:
        return None
    loaded = pygame.image.load_sized_svg(io.BytesIO(text.encode("utf-8")), (side, side))
    # SDL_image gives ABGR pixels, which SDL blends onto the screen's ARGB pixel by pixel (about 0.5 ms for a
    # stone at 1080p); the same picture in ARGB blends some 40 times faster.
    art = pygame.Surface(loaded.get_size(), pygame.SRCALPHA, 32)
    art.blit(loaded, (0, 0), special_flags=pygame.BLEND_RGBA_MAX)
    return art


def draw_pictogram(surface: pygame.Surface, rect: pygame.Rect, kind: str, name: str, fill: str | None = None) -> bool:
    """Draw the pictogram centred in `rect` (as large as fits); False when there is no such picture."""
    side = max(1, min(rect.width, rect.height))
    art = pictogram_surface(kind, str(name), side, fill)
    if art is None:
        return False
    surface.blit(art, art.get_rect(center=rect.center))
    return True
