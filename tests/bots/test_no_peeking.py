"""Bots never peek: re-drawing everything hidden from a bot's seat leaves its decision (same seed) unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.bots import Budget, make_bot
from companion.bots.base import canonical
from companion.core import TABLE, get_game
from companion.testing.harness import playout

LEVELS = ("easy", "normal", "strong")
CASES = [("power_grid", 3), ("bohnanza", 4), ("shifting_stones", 3)]


def positions(game_name: str, players: int, mode: str, count: int) -> list[tuple[Any, int]]:
    """(state, seat) pairs from a game of normal bots, spread over the whole game, where a player may act."""
    game = get_game(game_name)
    policy = make_bot(game_name, "normal")
    result = playout(game, players, 11, mode=mode, bots=dict.fromkeys(range(players), policy),  # type: ignore[arg-type]
                     check=False)
    state = game.setup(result.config, random.Random(11))
    found = []
    for action in result.actions:
        for seat in game.current_seats(state):
            if seat != TABLE and isinstance(seat, int) and game.legal_actions(state, seat):
                found.append((state, seat))
        state, _ = game.apply(state, action)
    step = max(1, len(found) // count)
    return found[::step][:count]


def same_decision(game_name: str, level: str, state: Any, seat: int, redraws: int = 2) -> bool:
    """The decision on the real state equals the one on every re-drawn state, with the same seed."""
    game = get_game(game_name)
    bot = make_bot(game_name, level, Budget(iterations=4))
    first = bot.choose(game, state, seat, game.legal_actions(state, seat), random.Random(5))
    for r in range(redraws):
        other = game.indistinguishable(state, seat, random.Random(100 + r))
        again = bot.choose(game, other, seat, game.legal_actions(other, seat), random.Random(5))
        if again != first:
            return False
    return True


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize(("game_name", "players"), CASES)
@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_decides_the_same_whatever_is_hidden_from_it(game_name: str, players: int, mode: str,
                                                           level: str) -> None:
    game = get_game(game_name)
    checked = 0
    hidden_differs = 0
    for state, seat in positions(game_name, players, mode, 8):
        other = game.indistinguishable(state, seat, random.Random(100))
        hidden_differs += game.state_to_json(other) != game.state_to_json(state)
        assert same_decision(game_name, level, state, seat), f"{level} bot of seat {seat} peeked"
        checked += 1
    assert checked >= 6
    if mode == "digital":
        # The property is only worth something where something is hidden.
        assert hidden_differs >= checked // 2


class PeekingBot:
    """A bot that cheats: it plays the first legal action when the top card of the deck is high, else the last."""

    def choose(self, game: Any, state: Any, seat: Any, legal: Any, rng: random.Random) -> Any:
        return legal[0] if state.deck and str(state.deck[0]) > str(sorted(state.deck)[len(state.deck) // 2]) \
            else legal[-1]


def test_the_check_catches_a_bot_that_peeks() -> None:
    game = get_game("shifting_stones")
    caught = 0
    for state, seat in positions("shifting_stones", 3, "digital", 8):
        legal = game.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        first = PeekingBot().choose(game, state, seat, legal, random.Random(5))
        for r in range(4):
            other = game.indistinguishable(state, seat, random.Random(100 + r))
            if PeekingBot().choose(game, other, seat, legal, random.Random(5)) != first:
                caught += 1
                break
    assert caught >= 1


@pytest.mark.parametrize(("game_name", "players"), CASES)
def test_the_canonical_information_set_is_one_state_per_seat_view(game_name: str, players: int) -> None:
    game = get_game(game_name)
    for state, seat in positions(game_name, players, "digital", 6):
        base = game.state_to_json(canonical(game, state, seat))
        for r in range(3):
            other = game.indistinguishable(state, seat, random.Random(r))
            assert game.state_to_json(canonical(game, other, seat)) == base
        assert game.view(canonical(game, state, seat), seat) == game.view(state, seat)


@pytest.mark.parametrize(("game_name", "players"), CASES)
def test_strong_bots_search_where_it_matters_and_the_search_never_peeks(game_name: str, players: int) -> None:
    """The strong level plays the exact plan or the policy where nothing is worth comparing, so the positions
    where it does search are looked for, and the no-peeking check is made on those."""
    game = get_game(game_name)
    bot = make_bot(game_name, "strong", Budget(iterations=6))
    searched = []
    for state, seat in positions(game_name, players, "digital", 80):
        bot.choose(game, state, seat, game.legal_actions(state, seat), random.Random(1))
        if getattr(bot, "last_iterations", 0) >= 6:
            searched.append((state, seat))
    assert searched, "the strong bot never searched"
    for state, seat in searched[:: max(1, len(searched) // 3)][:3]:
        assert same_decision(game_name, "strong", state, seat), f"the strong bot of seat {seat} peeked"
