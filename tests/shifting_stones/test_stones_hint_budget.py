"""The best-turn hint has a time budget: a search cut short says `exact: false` and still gives a playable plan."""

from __future__ import annotations

import dataclasses
import random

import pytest
from stones_table import play

from companion.games.shifting_stones import GAME
from companion.games.shifting_stones import distance as distance_module
from companion.games.shifting_stones import hints as hints_module
from companion.games.shifting_stones.best_turn import best_turn, best_turn_checked
from companion.games.shifting_stones.distance import card_info, swap_table, swap_table_ready
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


def playable(state: StonesState, best: dict) -> None:
    """Every step of the plan is legal in turn, and it scores what it says."""
    before = GAME.scores(state)["points"][0]
    for raw in best["actions"]:
        action = GAME.actions.parse(raw)
        assert action in GAME.legal_actions(state, 0), raw
        state = play(state, action)
    assert GAME.scores(state)["points"][0] - before == best["points"]


def warm(state: StonesState) -> None:
    """Builds the swap tables of the cards in seat 0's hand (once per process, a step of their own when cold)."""
    for c in state.players[0].hand:
        assert card_info(PATTERNS[c]).ready()


class CountingClock:
    """A clock that moves one unit each time it is read: a budget of K units allows K looks."""

    def __init__(self) -> None:
        self.reads = 0
        self.work: list[int] = []  # distances worked out so far, at each read

    def __call__(self) -> float:
        self.reads += 1
        self.work.append(sum(len(card.distances) + len(card.near) for card in distance_module._CARDS.values()))
        return float(self.reads)


def test_a_huge_hand_past_its_deadline_gets_a_legal_plan_marked_not_exact_at_once():
    for seed in range(3):
        state = with_hand(68, seed)
        clock = CountingClock()
        hints = advice(state, 0, budget=0.0, clock=clock)
        best = hints["best_turn"]
        assert best["exact"] is False
        # The deadline was set (one read) and the first look said the time was up (one more); nothing else looked.
        assert clock.reads == 2
        assert len(hints["cards"]) == 68
        assert all(c["fewest_actions"] is None and c["this_turn"] is None for c in hints["cards"])
        playable(state, best)


@pytest.mark.parametrize("size", [12, 40])
def test_every_step_of_a_large_hands_hints_looks_at_the_same_clock(size: int):
    state = with_hand(size, 7)
    warm(state)
    # The looks the whole advice takes with cold card caches: every budget below stops it before its end. (A best
    # turn searched to the end is kept for the next ask, which would then not search: forgotten.)
    distance_module._CARDS.clear()
    whole = CountingClock()
    advice(state, 0, budget=1e9, clock=whole)
    hints_module._EXACT_PLANS.clear()
    budgets = [0, 1, 5, size - 1, size, size + 1, 60, 100, 200, 400, 1000, 3000, 6000]
    budgets = [b for b in budgets if b + 2 < whole.reads]
    assert len(budgets) >= 11
    reached_search = False
    for budget in budgets:
        # Cold card caches, so that every distance is worked out again and counted.
        distance_module._CARDS.clear()
        clock = CountingClock()
        hints = advice(state, 0, budget=float(budget), clock=clock)
        # Whatever step the time ran out in, it stopped at the first look that said so.
        assert clock.reads == budget + 2, budget
        assert hints["best_turn"]["exact"] is False
        known = [c for c in hints["cards"] if c["fewest_actions"] is not None]
        # One look per card's advice: the cards the budget reached have it, the others say they were not reached.
        assert len(known) == min(budget, size)
        assert [c["card"] for c in known] == list(state.players[0].hand[: len(known)])
        # Between two looks at most one position's worth of distances is worked out: one per card of the hand
        # (the advice, the greedy walk and the search's positions each look at the clock that often).
        steps = [b - a for a, b in zip(clock.work, clock.work[1:])]
        assert max(steps) <= size, (budget, max(steps))
        playable(state, hints["best_turn"])
        reached_search |= hints["best_turn"]["points"] > 0
    assert reached_search


def test_a_forty_card_hand_whose_search_is_cut_still_gets_a_card_in_reach():
    for seed in range(3):
        state = with_hand(40, seed)
        warm(state)
        clock = CountingClock()
        hints = advice(state, 0, budget=150.0, clock=clock)  # the cards' advice, then a few steps of the search
        best = hints["best_turn"]
        assert best["exact"] is False and all(c["fewest_actions"] is not None for c in hints["cards"])
        playable(state, best)
        assert best["points"] > 0  # at least the best card within reach, not an empty plan


def test_a_swap_table_stopped_by_the_clock_goes_on_where_it_stopped():
    # An order of the four corners that no card asks for, so the table is new to this process.
    targets = (8, 6, 2, 0)
    assert targets not in distance_module._SWAP_TABLES
    looks = iter(range(10**9))
    calls = 1
    while not swap_table_ready(targets, out_of_time=lambda: next(looks) % 3 == 2):
        calls += 1
    assert calls > 3  # it was stopped more than once on the way
    table = swap_table(targets)
    # The same stones bound for the same corners in another order: the same swaps, relabelled.
    corners = swap_table((0, 2, 6, 8))
    assert len(table) == len(corners) == 9 * 8 * 7 * 6
    assert all(table[(p[3], p[2], p[1], p[0])] == d for p, d in corners.items())


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
