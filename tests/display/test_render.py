"""Headless renders of each game at each size: no errors, no text overflowing its panel, and golden images.

Stored states (tests/display/states/*.json) are public envelopes captured from the engines, so the golden
pictures only change when the display does. UPDATE_STATES=1 captures them again from the engines; UPDATE_GOLDEN=1
rewrites the golden pictures from the current display.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest

from companion.core.registry import all_games
from display.app import render_image
from display.model import DisplayModel
from display.offline import envelope, play
from display.render.layout import SIZES

HERE = Path(__file__).parent
STATES = HERE / "states"
GOLDEN = HERE / "golden"
GOLDEN_WIDTH = 640  # goldens are kept small; the comparison is on the shrunk picture
# A golden matches when few pixels differ by much: fonts and anti-aliasing may move a little across machines.
PIXEL_TOLERANCE = 48
SHARE_TOLERANCE = 0.02

# name -> (game, players, seed, steps or None for the end, options)
CAPTURED = {
    "power_grid_building": ("power_grid", 4, 2, 400, {}),
    "power_grid_auction": ("power_grid", 3, 5, 12, {"open_money": True}),
    "power_grid_summary": ("power_grid", 3, 2, None, {"open_money": True}),
    "bohnanza_trading": ("bohnanza", 4, 3, 45, {}),
    "bohnanza_summary": ("bohnanza", 5, 1, None, {}),
    "shifting_stones_play": ("shifting_stones", 3, 4, 2500, {}),
    "shifting_stones_summary": ("shifting_stones", 2, 7, None, {}),
    "shifting_stones_solo": ("shifting_stones", 1, 4, 25, {}),
    "tiny_play": ("tiny", 3, 1, 4, {}),
}


def capture(name: str) -> dict:
    game, players, seed, steps, options = CAPTURED[name]
    model = play(game, players, seed, steps, options=options)
    return {"envelope": model.envelope, "history": {k: {str(r): v for r, v in rounds.items()}
                                                    for k, rounds in model.history.items()}}


def load_model(name: str) -> DisplayModel:
    path = STATES / f"{name}.json"
    if os.environ.get("UPDATE_STATES") and CAPTURED[name][0] in all_games():
        STATES.mkdir(exist_ok=True)
        path.write_text(json.dumps(capture(name), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    model = DisplayModel(clock=lambda: 0.0)
    model.set_envelope(data["envelope"])
    model.history = {k: {int(r): v for r, v in rounds.items()} for k, rounds in data.get("history", {}).items()}
    model.set_connection("live")
    model.dismiss_lobby()
    model.add_feedback(True, "", 0, "phone")
    model.add_feedback(False, "it is not your turn", 1, "board")
    return model


def shrink(surface: pygame.Surface) -> pygame.Surface:
    w, h = surface.get_size()
    return pygame.transform.smoothscale(surface, (GOLDEN_WIDTH, round(h * GOLDEN_WIDTH / w)))


def differing_share(a: pygame.Surface, b: pygame.Surface) -> float:
    if a.get_size() != b.get_size():
        return 1.0
    w, h = a.get_size()
    pa, pb = pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB")
    bad = 0
    for i in range(0, len(pa), 3):
        if max(abs(pa[i] - pb[i]), abs(pa[i + 1] - pb[i + 1]), abs(pa[i + 2] - pb[i + 2])) > PIXEL_TOLERANCE:
            bad += 1
    return bad / (w * h)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", sorted(CAPTURED))
def test_stored_states_render_without_overflow_and_match_their_goldens(name, size, artifacts):
    model = load_model(name)
    surface, screen = render_image(model, size)
    pygame.image.save(surface, str(artifacts / f"display_{name}_{size[0]}x{size[1]}.png"))
    assert [o.text for o in screen.painter.overflows] == []
    small = shrink(surface)
    golden = GOLDEN / f"{name}_{size[0]}x{size[1]}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        pygame.image.save(small, str(golden))
    assert golden.exists(), f"no golden picture {golden.name}: run with UPDATE_GOLDEN=1"
    share = differing_share(small, pygame.image.load(str(golden)))
    assert share <= SHARE_TOLERANCE, f"{share:.1%} of the picture differs from {golden.name}"


# The live engines, a few steps into a game and at its end, at each size (what is registered now).
LIVE = [(g, n, s) for g, n, s in (("power_grid", 2, 11), ("power_grid", 6, 3), ("bohnanza", 2, 4),
                                   ("bohnanza", 7, 2), ("shifting_stones", 1, 3), ("shifting_stones", 5, 6))]


@pytest.mark.parametrize("game,players,seed", LIVE, ids=[f"{g}-{n}p" for g, n, _s in LIVE])
def test_live_games_render_at_every_size_from_start_to_end(game, players, seed, artifacts):
    if game not in all_games():
        pytest.xfail(f"{game} has not landed yet")
    for steps in (0, 30, None):
        model = play(game, players, seed, steps)
        for size in SIZES:
            surface, screen = render_image(model, size)
            assert [o.text for o in screen.painter.overflows] == [], (steps, size)
        pygame.image.save(surface, str(artifacts / f"display_live_{game}_{players}p_{steps}.png"))


def test_a_view_with_missing_keys_draws_nothing_there_and_never_crashes():
    for game in ("power_grid", "bohnanza", "shifting_stones", "unknown_game"):
        for view in ({}, {"players": [{}], "market": "?", "grid": [1, None], "resources": 5, "map": "moon"},
                     {"players": "none", "offers": [None], "face_up": None, "phase": 3}):
            model = DisplayModel()
            model.set_envelope({"game": game, "state_id": 2, "players": [{"seat": 0}], "view": view})
            for size in SIZES:
                render_image(model, size)


def test_an_unchanged_table_redraws_nothing_and_a_toast_redraws_only_the_feedback():
    model = load_model("bohnanza_trading")
    _surface, screen = render_image(model, (1280, 720))
    assert screen.render() == []
    model.add_feedback(False, "plant 13 needs a bid of at least 13", 2, "phone")
    rects = screen.render()
    assert rects == [screen.layout.feedback]
    env = dict(model.envelope or {})
    env["log"] = [*env.get("log", []), {"template": "{player} passed", "args": {"player": 0}, "text": ""}]
    model.set_envelope(env)
    assert screen.render() == [screen.layout.ticker]


def test_the_lobby_shows_a_qr_code_for_every_seat(artifacts):
    model = DisplayModel()
    model.set_envelope(envelope_for_lobby())
    model.set_join_codes([{"seat": s, "name": n, "url": f"http://table.local:8000/join/1?t=token{s}"}
                          for s, n in enumerate(("Ada", "Ben", "Cleo"))])
    for size in SIZES:
        surface, screen = render_image(model, size)
        assert screen.stack.top is not None and screen.stack.top.name == "lobby"
        assert [o.text for o in screen.painter.overflows] == []
        pygame.image.save(surface, str(artifacts / f"display_lobby_{size[0]}x{size[1]}.png"))
    # Three QR codes: count the big white squares of their quiet zones along a line through them.
    dark = pygame.image.tobytes(surface, "RGB")
    assert dark.count(b"\xff\xff\xff") > 3 * 500


def envelope_for_lobby() -> dict:
    from display.offline import COLOURS
    return {"session": 1, "game": "tiny", "title": "Tiny", "state_id": 0, "players": [
        {"seat": s, "name": n, "colour": COLOURS[s]} for s, n in enumerate(("Ada", "Ben", "Cleo"))],
        "current_seats": [0], "over": False, "view": {}, "log": []}


def test_the_snapshot_envelope_has_the_servers_shape(tiny):
    import random

    config = tiny.make_config(2, "digital", {}, {})
    state = tiny.setup(config, random.Random(1))
    body = envelope(tiny, config, state, [], 0)
    assert set(body) >= {"session", "game", "title", "state_id", "status", "mode", "seat", "players",
                         "current_seats", "over", "view", "log"}
