"""The shared playout harness on Shifting Stones: 1-5 players, both chance modes, with conservation checks."""

from __future__ import annotations

from collections import Counter

import pytest
from stones_table import all_cards

from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.patterns import FACES, PATTERNS, STONE_COUNTS, kind
from companion.games.shifting_stones.state import deck_size, unseen_quota
from companion.testing.harness import playout, selfplay


def every_card_in_one_place(state, config) -> None:
    """Nothing created or lost: each card sits in exactly one place, and the game holds the cards it should."""
    cards = all_cards(state)
    assert len(cards) == len(set(cards)), f"a card is in two places: {Counter(cards).most_common(1)}"
    in_game = dict(state.composition)
    placed = Counter(PATTERNS[c].points for c in cards)
    if state.deck_mode == "digital":
        assert placed == Counter(in_game), f"the game's cards by points are {dict(placed)}"
    else:
        quota = unseen_quota(state)
        assert all(quota[p] >= 0 for p in quota), f"more cards seen than the game holds: {quota}"
        assert deck_size(state) == len(state.returned) + sum(quota.values())
    assert sum(in_game.values()) == (16 if config.players == 1 else 72)


def the_stones_are_the_real_stones(state, config) -> None:
    if state.grid:
        counts = Counter(kind(FACES.index(f)) for f in state.grid)
        assert [counts[k] for k in range(4)] == list(STONE_COUNTS)


def turn_bookkeeping(state, config) -> None:
    target = {2: 10, 3: 9, 4: 8, 5: 7}.get(config.players)
    most = max(len(p.scored) for p in state.players)
    if target is not None:
        assert state.final_round == (most >= target), "the final round starts exactly at the trigger"
    else:
        assert state.strikes <= 4
        assert (state.phase == "over") == (state.result in ("won", "lost"))
    assert state.acted >= state.scored_this_turn
    if state.phase == "play":
        assert not state.pending


INVARIANTS = [every_card_in_one_place, the_stones_are_the_real_stones, turn_bookkeeping]


def mixed_bots(players: int) -> dict:
    """The greedy bot in even seats moves the game to its end; the random bot in odd seats tries anything."""
    bots = GAME.bots()
    return {s: bots["greedy"] if s % 2 == 0 else bots["random"] for s in range(players)}


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_the_harness_plays_shifting_stones_to_the_end(players, mode):
    for seed in (players, players + 10):
        result = playout(GAME, players, seed, mode=mode, bots=mixed_bots(players), invariants=INVARIANTS)
        assert result.finished
        scores = result.scores
        assert len(scores["scores"]) == players
        if players > 1:
            assert max(scores["scored_cards"]) >= {2: 10, 3: 9, 4: 8, 5: 7}[players]
            assert scores["winners"]
        else:
            assert scores["result"] in ("won", "lost")


@pytest.mark.parametrize("chance", [{"grid": "physical"}, {"deck": "physical"}])
def test_the_harness_plays_mixed_sessions(chance):
    result = playout(GAME, 3, seed=7, mode="digital", chance=chance, bots=mixed_bots(3), invariants=INVARIANTS)
    assert result.finished


def test_the_solo_game_under_random_play():
    for seed in range(3):
        result = playout(GAME, 1, seed, invariants=INVARIANTS)
        assert result.finished and result.scores["result"] in ("won", "lost")


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("players", [2, 5])
def test_random_play_keeps_every_contract(players, mode):
    # Random games run to thousands of actions; a few hundred fully checked steps cover what they do.
    result = playout(GAME, players, seed=11, mode=mode, invariants=INVARIANTS, max_steps=300)
    assert len(result.actions) == 300 or result.finished


def test_random_play_ends():
    summary = selfplay(GAME, 4, 2, seed=3)
    assert summary.finished == 2 and not summary.failures
    assert summary.mean_actions < GAME.max_game_length


def test_selfplay_with_the_greedy_bot():
    summary = selfplay(GAME, 2, 2, seed=5, bot="greedy")
    assert summary.finished == 2 and not summary.failures
