"""The display redraws only what changed: dirty panels only, static layers (the map) reused, the same picture."""

from __future__ import annotations

import pygame

from display.app import Screen, render_image
from display.offline import play

SIZE = (1920, 1080)


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def _next_map_change(start: int) -> tuple[dict, dict]:
    """Two public envelopes of one Power Grid game: after `start` moves, and after the next move that changed the
    houses on the map (and nothing of the map's regions)."""
    before = play("power_grid", 4, 3, start).envelope
    assert before is not None
    for steps in range(start + 1, start + 200):
        after = play("power_grid", 4, 3, steps).envelope
        assert after is not None
        if (after["view"].get("regions") == before["view"].get("regions")
                and after["view"].get("cities") != before["view"].get("cities")):
            return before, after
    raise AssertionError("no building in 200 moves")


def test_a_house_built_redraws_the_map_panel_over_its_cached_layer_and_matches_a_full_drawing():
    before, after = _next_map_change(150)
    model = play("power_grid", 4, 3, 0)
    model.set_envelope(before)
    surface = pygame.Surface(SIZE)
    screen = Screen(model, surface)
    screen.render(force=True)
    layers = screen.painter.layers_drawn
    assert layers >= 1 and "game:map" in screen.stack.last_drawn

    assert screen.render() == [] and screen.stack.last_drawn == []
    model.set_envelope(after)
    rects = screen.render()
    drawn = screen.stack.last_drawn
    assert "game:map" in drawn
    # Panels whose data did not change are left alone (the income table, the instructions of another phase...).
    all_panels = {f"game:{p.name}" for p in screen.stack.scenes[0].panels(screen.ctx)}
    assert set(drawn) < all_panels
    assert len(rects) == len(drawn)
    # The map's cities, lines and names were not painted again: only the houses over the cached layer.
    assert screen.painter.layers_drawn == layers
    fresh, _screen = render_image(model, SIZE)
    assert _pixels(surface) == _pixels(fresh)


def test_a_full_frame_of_a_table_seen_before_renders_no_text_again():
    model = play("power_grid", 4, 3, 150)
    _surface, screen = render_image(model, SIZE)
    rendered = screen.painter.renders
    assert rendered > 0
    screen.render(force=True)
    assert screen.painter.renders == rendered
    assert screen.stack.last_drawn and screen.painter.layers_drawn == 1
