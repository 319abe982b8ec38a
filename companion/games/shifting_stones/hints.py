"""Advice for a player's phone: per hand card the fewest shifts and flips that make it score, and the best turn.

Both are exact (see distance.py and best_turn.py) and count what the rules charge: every shift or flip discards
one of the player's own hand cards, and a discarded card can no longer score.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from companion.core.actions import Action
from companion.games.shifting_stones.actions import FlipStone, ScoreCard, ShiftStones
from companion.games.shifting_stones.best_turn import best_turn_checked
from companion.games.shifting_stones.distance import Move, distance, route
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


def turn_plan(state: StonesState, seat: int) -> tuple[int, list[Action], bool]:
    """(most points this turn, the actions in order, whether the search was exhaustive)."""
    points, actions, exact = _turn_plan(state.codes(), state.players[seat].hand, seat)
    return points, list(actions), exact


# Phones ask again after every action at the table, mostly about a hand and grid they asked about before.
@lru_cache(maxsize=1024)
def _card_plan(
    grid: tuple[int, ...], hand: tuple[str, ...], seat: int, card: str
) -> tuple[int, tuple[Action, ...] | None]:
    pattern = PATTERNS[card]
    d = distance(grid, pattern)
    if d > len(hand) - 1:
        return d, None
    spend = spend_order(hand, {card}, grid)
    actions = [move_action(seat, spend[k], move) for k, move in enumerate(route(grid, pattern))]
    return d, (*actions, ScoreCard(seat, card))


@lru_cache(maxsize=256)
def _turn_plan(grid: tuple[int, ...], hand: tuple[str, ...], seat: int) -> tuple[int, tuple[Action, ...], bool]:
    plan, exact = best_turn_checked(grid, [PATTERNS[c] for c in hand])
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


def advice(state: StonesState, seat: int) -> dict[str, Any]:
    """The hints for one seat's own hand, as JSON for its phone."""
    if not state.grid or not 0 <= seat < len(state.players):
        return {}
    hand = state.players[seat].hand
    cards = []
    for c in hand:
        d, actions = card_plan(state, seat, c)
        entry: dict[str, Any] = {
            "card": c,
            "points": PATTERNS[c].points,
            "fewest_actions": d,
            "this_turn": actions is not None,
        }
        if actions is not None:
            entry["actions"] = [a.to_json() for a in actions]
            entry["steps"] = [_step_text(a) for a in actions]
        else:
            entry["why"] = f"needs {d} shifts or flips, and only {len(hand) - 1} other cards could pay for them"
        cards.append(entry)
    points, actions, exact = turn_plan(state, seat)
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
