"""The tie-break sentence of each game's summary counts in the right plural: "1 coin", "2 coins"."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.core import get_game
from companion.i18n import catalog, log_line


def worded(message, lang: str = "en") -> str:
    return log_line(message.template, dict(message.args), catalog(lang), ["Ann", "Bob", "Cy"])


@pytest.mark.parametrize(("count", "text"), [(1, "Ann, Bob had 1 coin and as many"),
                                             (2, "Ann, Bob had 2 coins and as many")])
def test_bohnanza_tie_break_counts_coins_in_the_right_plural(count, text):
    game = get_game("bohnanza")
    state = game.setup(game.make_config(3, "digital"), random.Random(1))
    coin = state.deck[: 2 * count]
    players = list(state.players)
    players[0] = dataclasses.replace(players[0], coins=coin[:count], hand=())
    players[1] = dataclasses.replace(players[1], coins=coin[count:], hand=())
    players[2] = dataclasses.replace(players[2], coins=(), hand=())
    state = dataclasses.replace(state, players=tuple(players), deck=state.deck[2 * count :])
    message = game.tie_break(state)
    assert message is not None and worded(message).startswith(text)
    assert "{count}" not in worded(message, "is") and "{" not in worded(message, "bn")


@pytest.mark.parametrize(("count", "text"), [(1, "Ann, Bob powered 1 city each"),
                                             (3, "Ann, Bob powered 3 cities each")])
def test_power_grid_tie_break_counts_cities_in_the_right_plural(count, text, monkeypatch):
    from companion.games.power_grid import table

    game = get_game("power_grid")
    state = game.setup(game.make_config(3, "digital"), random.Random(1))
    scores = {"scores": [count, count, 0], "money": [9, 5, 0], "cities": [1, 1, 0], "winners": [0]}
    monkeypatch.setattr(table, "final_scores", lambda s: scores)
    message = table.tie_break(state)
    assert message is not None and worded(message).startswith(text)
    assert worded(message, "is").startswith("Ann, Bob knúðu 1 borg" if count == 1 else "Ann, Bob knúðu 3 borgir")


def test_shifting_stones_tie_break_counts_points_in_the_right_plural(monkeypatch):
    from companion.games.shifting_stones import scoring, table

    game = get_game("shifting_stones")
    state = game.setup(game.make_config(3, "digital"), random.Random(1))
    monkeypatch.setattr(scoring, "winners", lambda s: [0, 2])
    monkeypatch.setattr(scoring, "totals", lambda s: [1, 0, 1])
    message = table.tie_break(state)
    assert message is not None and worded(message) == "Ann, Cy tied with 1 point: they share the win"
    monkeypatch.setattr(scoring, "totals", lambda s: [7, 0, 7])
    assert worded(table.tie_break(state)) == "Ann, Cy tied with 7 points: they share the win"
