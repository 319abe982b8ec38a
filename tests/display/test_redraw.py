"""The display redraws only what changed: dirty panels only, static layers and sprites reused, the same picture.

Every picture drawn bit by bit is compared, pixel for pixel, with the same table drawn afresh on a new screen and
with one drawn without any cache (no layers, no sprites: every frame and card painted directly).
"""

from __future__ import annotations

import copy
import time
from typing import Any

import pygame
import pytest

from display.app import DisplayApp, Screen, render_image
from display.i18n import set_language
from display.model import DisplayModel
from display.offline import play

SIZE = (1920, 1080)
# A mid-game table of each game, and a change that touches one panel only: (game, players, seed, steps).
TABLES = {"power_grid": ("power_grid", 4, 3, 150), "bohnanza": ("bohnanza", 5, 2, 60),
          "shifting_stones": ("shifting_stones", 3, 4, 40)}


class Recorder(DisplayModel):
    """A model that keeps every public envelope it was given (the table move by move)."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[dict[str, Any]] = []

    def set_envelope(self, envelope: dict[str, Any]) -> None:
        self.envelopes.append(copy.deepcopy(envelope))
        super().set_envelope(envelope)


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def _fresh(model: DisplayModel, size: tuple[int, int] = SIZE) -> bytes:
    surface, _screen = render_image(model, size)
    return _pixels(surface)


def _uncached(model: DisplayModel, size: tuple[int, int] = SIZE) -> bytes:
    surface = pygame.Surface(size)
    screen = Screen(model, surface)
    screen.painter.cache_layers = False
    screen.render(force=True)
    assert screen.painter.layers_drawn == 0 and screen.painter.sprites_drawn == 0
    return _pixels(surface)


def _screen(model: DisplayModel, size: tuple[int, int] = SIZE) -> tuple[pygame.Surface, Screen]:
    surface = pygame.Surface(size)
    screen = Screen(model, surface)
    screen.render(force=True)
    return surface, screen


def _all_panels(screen: Screen) -> set[str]:
    return {f"{scene.name}:{p.name}" for scene in screen.stack.visible() for p in scene.panels(screen.ctx)}


def _one_panel_change(game: str, envelope: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The envelope with one player's figure changed, and the one panel that shows it."""
    changed = copy.deepcopy(envelope)
    players = changed["view"]["players"]
    if game == "power_grid":
        players[1]["money"] = 123
        return changed, "game:players"
    if game == "bohnanza":
        players[1]["coins"] = players[1].get("coins", 0) + 5
        return changed, "game:player1"
    players[1]["score"] = 99
    return changed, "game:player1"


@pytest.mark.parametrize("game", sorted(TABLES))
def test_one_changed_panel_is_the_only_one_drawn_and_the_layers_are_reused(game, artifacts):
    name, players, seed, steps = TABLES[game]
    model = play(name, players, seed, steps)
    surface, screen = _screen(model)
    painter = screen.painter
    # Drawn once: the frames of every panel (and, in Power Grid, the map and the income table).
    layers = painter.layers_drawn
    assert layers >= (3 if game == "power_grid" else 1)
    assert screen.stack.last_drawn and set(screen.stack.last_drawn) == _all_panels(screen)

    assert screen.render() == [] and screen.stack.last_drawn == []  # nothing changed: nothing drawn

    changed, panel = _one_panel_change(game, model.envelope or {})
    model.set_envelope(changed)
    rects = screen.render()
    assert screen.stack.last_drawn == [panel]
    assert [tuple(r) for r in rects] == [tuple(p.rect) for scene in screen.stack.visible()
                                         for p in scene.panels(screen.ctx) if f"{scene.name}:{p.name}" == panel]
    assert painter.layers_drawn == layers
    pygame.image.save(surface, str(artifacts / f"display_redraw_{game}_one_panel.png"))
    assert _pixels(surface) == _fresh(model) == _uncached(model)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_each_move_redraws_only_the_panels_it_changed_and_matches_a_full_drawing(game):
    name, players, seed, steps = TABLES[game]
    model = Recorder()
    play(name, players, seed, steps + 12, model=model)
    moves = model.envelopes[-13:]
    model.set_envelope(moves[0])
    surface, screen = _screen(model)
    every = _all_panels(screen)
    partial = 0
    for envelope in moves[1:]:
        before = {f"{scene.name}:{p.name}": (tuple(p.rect), p.data) for scene in screen.stack.visible()
                  for p in scene.panels(screen.ctx)}
        layers = screen.painter.layers_drawn
        model.set_envelope(envelope)
        after = {f"{scene.name}:{p.name}": (tuple(p.rect), p.data) for scene in screen.stack.visible()
                 for p in scene.panels(screen.ctx)}
        screen.render()
        drawn = set(screen.stack.last_drawn)
        if before.keys() == after.keys() and all(before[k][0] == after[k][0] for k in after):
            # The same layout: exactly the panels whose data changed are drawn, over the same layers.
            assert drawn == {k for k in after if before[k][1] != after[k][1]}
            assert screen.painter.layers_drawn == layers
            partial += drawn < every
        else:
            assert drawn == set(after)  # a panel came, went or moved: all drawn afresh
        assert _pixels(surface) == _fresh(model)
    assert partial >= 3  # most moves touch a few panels, not all
    assert _pixels(surface) == _uncached(model)


def test_a_full_frame_of_a_table_seen_before_renders_no_text_and_paints_no_layer_again():
    model = play("power_grid", 4, 3, 150)
    _surface, screen = render_image(model, SIZE)
    rendered, layers, sprites = screen.painter.renders, screen.painter.layers_drawn, screen.painter.sprites_drawn
    assert rendered > 0 and layers == 3 and sprites > 0  # the frames, the map, the income table; plant cards
    screen.render(force=True)
    assert screen.stack.last_drawn == sorted(_all_panels(screen), key=screen.stack.last_drawn.index)
    assert (screen.painter.renders, screen.painter.layers_drawn, screen.painter.sprites_drawn) == (
        rendered, layers, sprites)


def test_a_resize_paints_the_layers_again_at_the_new_size(artifacts):
    model = play("bohnanza", 5, 2, 60)
    _surface, screen = _screen(model)
    small = pygame.Surface((1280, 720))
    screen.resize(small)
    assert screen.painter.layers_drawn == 0
    screen.render()
    assert screen.painter.layers_drawn >= 1 and set(screen.stack.last_drawn) == _all_panels(screen)
    pygame.image.save(small, str(artifacts / "display_redraw_resized_1280x720.png"))
    assert _pixels(small) == _fresh(model, (1280, 720)) == _uncached(model, (1280, 720))


@pytest.mark.parametrize("lang", ["is", "bn"])
def test_a_language_change_paints_the_layers_and_texts_again(lang, artifacts):
    model = play("power_grid", 4, 3, 150)
    surface, screen = _screen(model)
    english = screen.painter
    try:
        set_language(lang, False)
        screen.render()
        assert screen.painter is not english and screen.painter.layers_drawn == 3
        assert set(screen.stack.last_drawn) == _all_panels(screen)
        pygame.image.save(surface, str(artifacts / f"display_redraw_{lang}.png"))
        translated = _pixels(surface)
        assert translated == _fresh(model) == _uncached(model)
    finally:
        set_language("en", False)
    screen.render()
    assert _pixels(surface) == _fresh(model) != translated


def test_an_idle_step_draws_nothing_and_sleeps_between_looks_for_input():
    app = DisplayApp(play("shifting_stones", 3, 4, 40), (800, 480))
    try:
        app.step(timeout_ms=5)
        renders, frames, polls = app.renders, app.frames, app.polls
        started = time.monotonic()
        assert app.step(timeout_ms=300) == []
        assert time.monotonic() - started >= 0.29  # it waited for the whole time
        # Nothing came: no panel was even looked at, and SDL was asked for input a few times, not every millisecond.
        assert (app.renders, app.frames) == (renders, frames)
        assert app.polls - polls <= 300 // 20 + 2
        # A message wakes it at once and draws what it changed.
        app.deliver({"type": "feedback", "ok": False, "seat": 0, "source": "phone", "text": "not your turn"})
        started = time.monotonic()
        rects = app.step(timeout_ms=2000)
        assert time.monotonic() - started < 1.0
        assert app.renders == renders + 1 and app.screen.stack.last_drawn == ["game:feedback"] and len(rects) == 1
    finally:
        pygame.display.quit()


def test_under_the_hosts_choices_a_change_redraws_the_panel_and_the_box_over_it_as_a_fresh_drawing(artifacts):
    model = play("bohnanza", 5, 2, 60)
    legal = [{"seat": "table", "action": "reveal_card", "card": c} for c in (2, 7, 11)]
    model.apply_message({"type": "choices", "seat": "table", "legal": legal, "state_id": 60})
    surface, screen = _screen(model)
    assert [s.name for s in screen.stack.visible()] == ["game", "choices"]
    layers = screen.painter.layers_drawn
    model.add_feedback(False, "it is not your turn", 1, "phone")
    screen.render()
    assert screen.stack.last_drawn == ["game:feedback", "choices:box"]
    assert _pixels(surface) == _fresh(model)
    model.move_choice(1)  # only the box changes
    screen.render()
    assert screen.stack.last_drawn == ["choices:box"] and screen.painter.layers_drawn == layers
    pygame.image.save(surface, str(artifacts / "display_redraw_under_choices.png"))
    assert _pixels(surface) == _fresh(model) == _uncached(model)


def test_the_layers_kept_stay_within_their_memory_budget_dropping_the_least_recently_used():
    from display.render.widgets import LAYER_CACHE_BYTES, Painter

    painter = Painter(1.5)
    for n in range(12):
        painter.layer(("frames", n), SIZE, lambda s: None)
    painter.layer(("frames", 11), SIZE, lambda s: None)  # still kept: not painted again
    assert painter.layers_drawn == 12
    kept = painter._layers  # the cache itself is what is checked
    assert sum(s.get_bytesize() * s.get_width() * s.get_height() for s in kept.values()) <= LAYER_CACHE_BYTES
    assert (("frames", 11), SIZE) in kept and (("frames", 0), SIZE) not in kept
    painter.layer(("frames", 0), SIZE, lambda s: None)
    assert painter.layers_drawn == 13


@pytest.mark.parametrize("name", ["power_grid_auction", "power_grid_building", "bohnanza_trading",
                                  "shifting_stones_play", "shifting_stones_solo", "power_grid_summary"])
@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)])
def test_the_stored_tables_drawn_with_layers_and_sprites_equal_them_drawn_directly(name, size):
    """Face-up bean cards, scored pattern cards, the plant on auction, a summary: the cached pictures are exact."""
    from test_render import load_model

    model = load_model(name)
    surface, screen = render_image(model, size)
    assert screen.painter.layers_drawn >= 1
    if name in ("power_grid_auction", "power_grid_building", "bohnanza_trading", "shifting_stones_play"):
        assert screen.painter.sprites_drawn >= 1  # plant cards, bean cards and fields, stones and pattern cards
    assert _pixels(surface) == _uncached(model, size)
