"""Advice for a player's phone: per hand card the fewest shifts and flips that make it score, and the best turn.

Both are exact (see distance.py and best_turn.py) and count what the rules charge: every shift or flip discards
one of the player's own hand cards, and a discarded card can no longer score. The best turn's search has a
wall-clock budget (`HINT_BUDGET`): a hand grown large by skips gets the best plan found in that time, marked
`exact: false`, instead of keeping the table waiting. Advice is not a rule: reading the clock here changes no
state, and the rules engine itself never does.
"""

from __future__ import annotations

import gc
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from companion.core.actions import Action
from companion.games.shifting_stones.actions import FlipStone, ScoreCard, ShiftStones
from companion.games.shifting_stones.best_turn import best_turn_checked
from companion.games.shifting_stones.distance import Move, card_info, distance, route
from companion.games.shifting_stones.patterns import CELL_NAMES, PATTERNS, matches
from companion.games.shifting_stones.state import StonesState


def describe(move: Move) -> str:
    if move.b is None:
        return f"flip the {CELL_NAMES[move.a]} stone"
    return f"swap the {CELL_NAMES[move.a]} and {CELL_NAMES[move.b]} stones"


def spend_order(hand: Sequence[str], keep: set[str], grid: tuple[int, ...]) -> list[str]:
    """Cards to discard for moves, cheapest first: low points, then cards that cannot score now."""
    others = [c for c in hand if c not in keep]
    return sorted(others, key=lambda c: (PATTERNS[c].points, matches(grid, PATTERNS[c]), c))


def move_action(seat: int, card: str, move: Move) -> Action:
    if move.b is None:
        return FlipStone(seat, card, move.a)
    return ShiftStones(seat, card, move.a, move.b)


def card_plan(state: StonesState, seat: int, card: str) -> tuple[int, list[Action] | None]:
    """(fewest shifts and flips that make `card` score, the actions doing it this turn or None if the hand is
    too small: the moves need that many of the other cards)."""
    d, actions = _card_plan(state.codes(), state.players[seat].hand, seat, card)
    return d, None if actions is None else list(actions)


@lru_cache(maxsize=64)
def _spend_all(grid: tuple[int, ...], hand: tuple[str, ...]) -> tuple[str, ...]:
    # The order for the whole hand, once: each card's own order is it without that card (a large hand asks for
    # every card's plan, and sorting the hand again for each would cost its size squared).
    return tuple(spend_order(hand, set(), grid))


# The most the best-turn search of one phone's hints may take, in seconds of wall-clock time.
HINT_BUDGET = 0.045


def turn_plan(state: StonesState, seat: int, budget: float | None = None) -> tuple[int, list[Action], bool]:
    """(most points this turn, the actions in order, whether the search was exhaustive).

    With a `budget` (seconds) the search stops then and gives its best plan so far (not exhaustive); without, it
    stops only at its node limit, so the answer does not depend on the machine (the bots' selfplay).
    """
    grid, hand = state.codes(), state.players[seat].hand
    if budget is None:
        points, actions, exact = _turn_plan(grid, hand, seat)
    else:
        points, actions, exact = _timed_turn_plan(grid, hand, seat, Deadline(budget))
    return points, list(actions), exact


def _timed_turn_plan(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, out_of_time: Callable[[], bool]
) -> tuple[int, tuple[Action, ...], bool]:
    key = (grid, hand, seat)
    found = _EXACT_PLANS.get(key)
    if found is not None:
        _EXACT_PLANS.move_to_end(key)
        return found
    found = _search_turn(grid, hand, seat, out_of_time)
    if found[2]:  # only an exhaustive answer is kept: a cut-short one may finish another time
        _EXACT_PLANS[key] = found
        if len(_EXACT_PLANS) > 256:
            _EXACT_PLANS.popitem(last=False)
    return found


_EXACT_PLANS: OrderedDict[tuple[tuple[int, ...], tuple[str, ...], int], tuple[int, tuple[Action, ...], bool]] = (
    OrderedDict())


class Deadline:
    """The wall-clock budget of one seat's hints, asked before every step of their work (each card's advice, each
    card's tables, the best turn's search): once it says the time is up it stays up, without reading the clock."""

    def __init__(self, budget: float, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self._ends = clock() + budget
        self.passed = False

    def __call__(self) -> bool:
        if not self.passed and self._clock() > self._ends:
            self.passed = True
        return self.passed


# Phones ask again after every action at the table, mostly about a hand and grid they asked about before.
@lru_cache(maxsize=1024)
def _card_plan(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, card: str
) -> tuple[int, tuple[Action, ...] | None]:
    pattern = PATTERNS[card]
    d = distance(grid, pattern)
    if d > len(hand) - 1:
        return d, None
    spend = [c for c in _spend_all(grid, hand) if c != card]
    actions = [move_action(seat, spend[k], move) for k, move in enumerate(route(grid, pattern))]
    return d, (*actions, ScoreCard(seat, card))


@lru_cache(maxsize=256)
def _turn_plan(grid: tuple[int, ...], hand: tuple[str, ...], seat: int) -> tuple[int, tuple[Action, ...], bool]:
    return _search_turn(grid, hand, seat, None)


def _search_turn(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, out_of_time: Callable[[], bool] | None
) -> tuple[int, tuple[Action, ...], bool]:
    plan, exact = best_turn_checked(grid, [PATTERNS[c] for c in hand], out_of_time=out_of_time)
    scored = {hand[i] for i in plan.cards}
    # The cards left over stay in hand for the next turn: spend the cheapest.
    spend = iter(spend_order(hand, scored, grid))
    actions: list[Action] = []
    for step in range(len(plan.moves) + 1):
        actions += [ScoreCard(seat, hand[i]) for t, i in plan.scores if t == step]
        if step < len(plan.moves):
            actions.append(move_action(seat, next(spend), plan.moves[step]))
    return plan.points, tuple(actions), exact


def _step_text(action: Action) -> str:
    if isinstance(action, ScoreCard):
        return f"score {action.card}"
    if isinstance(action, FlipStone):
        return f"discard {action.card}: {describe(Move(action.cell))}"
    assert isinstance(action, ShiftStones)
    return f"discard {action.card}: {describe(Move(action.a, action.b))}"


def advice(
    state: StonesState, seat: int, budget: float = HINT_BUDGET, clock: Callable[[], float] = time.perf_counter
) -> dict[str, Any]:
    """The hints for one seat's own hand, as JSON for its phone, within `budget` seconds of `clock`.

    Every step checks the same deadline: each card's fewest moves (a card not reached in time has
    `fewest_actions: None`), then the best turn's search (cut short, it gives its best plan so far, perhaps the
    empty plan, with `exact: false`)."""
    if not state.grid or not 0 <= seat < len(state.players):
        return {}
    # A full collection of the process's objects can take 10-30 ms on a busy machine, more than a step of this
    # answer: the collector waits until the answer is out (what the hints allocate is nearly all freed at once).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _advice(state, seat, Deadline(budget, clock))
    finally:
        if collecting:
            gc.enable()


def _advice(state: StonesState, seat: int, out_of_time: Deadline) -> dict[str, Any]:
    hand = state.players[seat].hand
    cards = []
    for c in hand:
        entry: dict[str, Any] = {"card": c, "points": PATTERNS[c].points}
        # A card's tables are built once in a process (the largest over 10 ms): they too stop at the deadline.
        if out_of_time() or not card_info(PATTERNS[c]).ready(out_of_time):
            cards.append(entry | {"fewest_actions": None, "this_turn": None})
            continue
        d, actions = card_plan(state, seat, c)
        entry |= {"fewest_actions": d, "this_turn": actions is not None}
        if actions is not None:
            entry["actions"] = [a.to_json() for a in actions]
            entry["steps"] = [_step_text(a) for a in actions]
        else:
            entry["why"] = f"needs {d} shifts or flips, and only {len(hand) - 1} other cards could pay for them"
        cards.append(entry)
    points, plan, exact = _timed_turn_plan(state.codes(), hand, seat, out_of_time)
    actions = list(plan)
    return {
        "your_turn": state.phase == "play" and state.turn == seat,
        "cards": cards,
        "best_turn": {
            "points": points,
            "cards": [a.card for a in actions if isinstance(a, ScoreCard)],
            "moves": sum(1 for a in actions if not isinstance(a, ScoreCard)),
            "actions": [a.to_json() for a in actions],
            "steps": [_step_text(a) for a in actions],
            "exact": exact,
        },
    }
