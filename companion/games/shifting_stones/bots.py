"""Selfplay bots: the greedy bot plays each turn's best plan from the exact hints."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.core.actions import Action
from companion.core.seats import TABLE, Seat
from companion.games.shifting_stones.actions import EndTurn, SkipTurn
from companion.games.shifting_stones.distance import distance, route
from companion.games.shifting_stones.hints import move_action, spend_order, turn_plan
from companion.games.shifting_stones.patterns import PATTERNS
from companion.games.shifting_stones.state import StonesState


class GreedyBot:
    """Scores the most points it can this turn, with the fewest moves.

    With nothing to score it skips when allowed (two more cards, more chances next turn); otherwise it spends one
    card on the first move toward the nearest, most valuable card, and ends the turn.
    """

    def choose(self, game: Any, state: StonesState, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
        if seat == TABLE or not isinstance(seat, int):
            return rng.choice(list(legal))
        points, actions, _ = turn_plan(state, seat)
        if points > 0 and actions and actions[0] in legal:
            return actions[0]
        skip = SkipTurn(seat)
        if skip in legal:
            return skip
        hand = state.players[seat].hand
        if state.acted == 0 and len(hand) >= 2:
            grid = state.codes()
            target = min(hand, key=lambda c: (distance(grid, PATTERNS[c]), -PATTERNS[c].points, c))
            moves = route(grid, PATTERNS[target])
            if moves:
                action = move_action(seat, spend_order(hand, {target}, grid)[0], moves[0])
                if action in legal:
                    return action
        return EndTurn(seat)
