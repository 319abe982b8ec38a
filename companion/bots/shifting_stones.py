"""Shifting Stones bots: the greedy planner as the policy, and the search's hooks (setting up the next turn)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.bots.base import outcome, squash
from companion.core import Action, Game
from companion.core.game import Bot
from companion.games.shifting_stones.actions import EndTurn, ScoreCard, SkipTurn
from companion.games.shifting_stones.bots import GreedyBot
from companion.games.shifting_stones.distance import distance, route
from companion.games.shifting_stones.hints import move_action, spend_order, turn_plan
from companion.games.shifting_stones.patterns import PATTERNS
from companion.games.shifting_stones.state import StonesState

# The most first steps toward other cards of the hand the search compares with the greedy move.
ROUTES = 3
# What the points the bot's next turn can score are worth now (the others may spoil the grid first).
NEXT_TURN_WEIGHT = 0.5


class StonesHooks:
    """The search's view of Shifting Stones: a turn that can score follows the exact best plan; otherwise the
    search compares skipping, ending the turn and the first steps toward each card of the hand, playing on until
    the bot's next turn."""

    def __init__(self) -> None:
        self._policy = GreedyBot()

    def policy(self) -> Bot:
        return self._policy

    def candidates(
        self, game: Game[Any], state: StonesState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> list[Action | None]:
        first = self._policy.choose(game, state, seat, legal, rng)
        if isinstance(first, ScoreCard) or len(legal) <= 1 or state.phase != "play":
            return [first]
        out: list[Action | None] = [first]
        out += [a for a in legal if isinstance(a, SkipTurn | EndTurn)]
        hand = state.players[seat].hand
        if len(hand) >= 2:
            grid = state.codes()
            targets = sorted(hand, key=lambda c: (distance(grid, PATTERNS[c]), -PATTERNS[c].points, c))
            for target in targets[:ROUTES]:
                moves = route(grid, PATTERNS[target])
                if moves:
                    out.append(move_action(seat, spend_order(hand, {target}, grid)[0], moves[0]))
        unique: list[Action | None] = []
        for a in out:
            if a in legal and a not in unique:
                unique.append(a)
        return unique

    def determinize(self, game: Game[Any], state: StonesState, seat: int, rng: random.Random) -> StonesState:
        return game.indistinguishable(state, seat, rng)

    def stop(self, start: StonesState, state: StonesState, seat: int) -> bool:
        return state.turns_taken > start.turns_taken and state.turn == seat and state.acted == 0

    def evaluate(self, game: Game[Any], state: StonesState, seat: int) -> float:
        if game.is_over(state):
            return outcome(game, state, seat)
        scores = game.scores(state)["scores"]
        best_other = max(s for i, s in enumerate(scores) if i != seat) if len(scores) > 1 else 0
        # The playout stops as the bot's next turn begins: what that turn can score (exactly) counts, half weighted.
        ahead = turn_plan(state, seat)[0] if state.phase == "play" and state.turn == seat else 0
        return squash(scores[seat] + NEXT_TURN_WEIGHT * ahead - best_other, 3.0)
