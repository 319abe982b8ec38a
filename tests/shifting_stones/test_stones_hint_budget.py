"""The best-turn hint has a time budget: a search cut short says `exact: false` and still gives a playable plan."""

from __future__ import annotations

import dataclasses
import random

from stones_table import play

from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.best_turn import best_turn, best_turn_checked
from companion.games.shifting_stones.hints import advice
from companion.games.shifting_stones.patterns import CARD_IDS, PATTERNS, matches, random_grid
from companion.games.shifting_stones.state import StonesState


def with_hand(size: int, seed: int) -> StonesState:
    """A digital two-player game where seat 0, to move, holds `size` cards (as after many skips)."""
    rng = random.Random(seed)
    state = GAME.setup(GAME.make_config(2), random.Random(seed))
    free = [c for c in CARD_IDS if c not in state.players[1].hand]
    hand = tuple(rng.sample(free, size))
    players = (dataclasses.replace(state.players[0], hand=hand), state.players[1])
    return dataclasses.replace(state, players=players, deck=tuple(c for c in free if c not in hand),
                               grid=random_grid(rng), turn=0)


def test_a_forty_card_hand_past_the_budget_gets_a_playable_plan_marked_not_exact():
    for seed in range(3):
        state = with_hand(40, seed)
        hints = advice(state, 0, budget=0.0)
        best = hints["best_turn"]
        assert best["exact"] is False
        assert len(hints["cards"]) == 40 and all("fewest_actions" in c for c in hints["cards"])
        # The plan so far is real: every step is legal in turn and it scores what it says.
        before = GAME.scores(state)["points"][0]
        for raw in best["actions"]:
            action = GAME.actions.parse(raw)
            assert action in GAME.legal_actions(state, 0), raw
            state = play(state, action)
        assert GAME.scores(state)["points"][0] - before == best["points"]
        assert best["points"] > 0  # at least the best card within reach, not an empty plan


def test_a_search_stopped_by_its_clock_says_so_and_never_claims_more_than_the_full_search():
    cut = 0
    for seed in range(6):
        state = with_hand(7, seed)
        patterns = [PATTERNS[c] for c in state.players[0].hand]
        looks = iter(range(10**9))
        plan, exact = best_turn_checked(state.codes(), patterns, out_of_time=lambda looks=looks: next(looks) >= 40)
        full = best_turn(state.codes(), patterns)
        assert plan.points <= full.points
        if exact:
            assert plan == full
        else:
            cut += 1
            assert next(looks) == 41  # it stopped at the first look that said the time was up
    assert cut > 0


def test_a_small_hand_within_the_budget_is_exact():
    for seed in range(5):
        hints = advice(with_hand(4, seed), 0, budget=30.0)
        assert hints["best_turn"]["exact"] is True


def test_a_huge_hand_whose_time_is_up_at_once_gets_the_plan_that_needs_no_search():
    # The greedy start walks every card's route (its size cubed in distances): it too stops at the first look that
    # says the time is up, leaving what shows now or the best card in reach, never a walk of many cards.
    for seed in range(3):
        state = with_hand(68, seed)
        patterns = [PATTERNS[c] for c in state.players[0].hand]
        looks = iter(range(10**9))
        plan, exact = best_turn_checked(state.codes(), patterns, out_of_time=lambda looks=looks: next(looks) >= 0)
        assert exact is False
        assert next(looks) == 1  # one look, and the search did not go on
        showing = sum(1 for p in patterns if matches(state.codes(), p))
        assert len(plan.scores) <= showing + 1
