"""Power Grid bots: a steady policy that values plants instead of spending all it has, and the search's hooks."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from companion.bots.base import outcome, squash
from companion.core import Action, Game
from companion.core.game import Bot
from companion.games.power_grid.actions import (
    Bid,
    BuildCity,
    DeclineToOpen,
    EndBuilding,
    OpenAuction,
    Pass,
)
from companion.games.power_grid.bots import HeuristicBot
from companion.games.power_grid.data import MAPS, PLANTS
from companion.games.power_grid.hints import build_plans
from companion.games.power_grid.state import PowerGridState

# What a city in the network and a city of plant capacity are worth against Elektro when a playout stops early.
CITY_WORTH = 22
CAPACITY_WORTH = 10
# How many rounds a playout looks ahead before it is judged (the end of the game is always played out).
HORIZON_ROUNDS = 2


def plant_premium(state: PowerGridState, plant: int) -> int:
    """How far above its number the steady bot bids for a plant: more for plants that power many cities."""
    info = PLANTS[plant]
    green = 4 if not info.burns else 0
    early = 0 if state.round <= 1 else 4
    return 2 + 3 * info.cities + green + early


class SteadyBot(HeuristicBot):
    """The unpriced heuristic bot (the `baseline`) with a sense of price: it never bids more than a plant is worth
    to it (its number plus a premium for the cities it powers), so it keeps money to build in the first rounds."""

    def __init__(self) -> None:
        super().__init__(priced=False)

    def _limits(self, state: PowerGridState, seat: int) -> dict[int, int | None]:
        limits = super()._limits(state, seat)
        return {plant: None if limit is None else min(limit, plant + plant_premium(state, plant))
                for plant, limit in limits.items()}


class PowerGridHooks:
    """The search's view of Power Grid: which moves to compare, how to sample what is hidden, how to judge."""

    def __init__(self) -> None:
        self._policy = SteadyBot()

    def policy(self) -> Bot:
        return self._policy

    def candidates(
        self, game: Game[Any], state: PowerGridState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> list[Action | None]:
        first = self._policy.choose(game, state, seat, legal, rng)
        kinds = {type(a) for a in legal}
        out: list[Action] = [first]
        if OpenAuction in kinds or DeclineToOpen in kinds:
            opens = [a for a in legal if isinstance(a, OpenAuction) and a.bid == a.plant
                     and a.plant <= state.players[seat].money]
            opens.sort(key=lambda a: (-PLANTS[a.plant].cities, a.plant))
            out += [a for a in legal if isinstance(a, DeclineToOpen)] + opens[:4]
        elif Bid in kinds or Pass in kinds:
            bids = [a for a in legal if isinstance(a, Bid)]
            out += [a for a in legal if isinstance(a, Pass)]
            if bids:
                out.append(min(bids, key=lambda a: a.amount))
        elif EndBuilding in kinds and len(legal) > 1:
            out.append(next(a for a in legal if isinstance(a, EndBuilding)))
            plan = build_plans(state, seat, budget=state.players[seat].money, kmax=1)[1]
            if plan is not None:
                out.append(BuildCity(seat, MAPS[state.map].city_ids[plan.cities[0]]))
        else:
            return [first]
        unique: list[Action | None] = []
        for a in out:
            if a in legal and a not in unique:
                unique.append(a)
        return unique

    def determinize(self, game: Game[Any], state: PowerGridState, seat: int, rng: random.Random) -> PowerGridState:
        world: PowerGridState = game.indistinguishable(state, seat, rng)
        if state.open_money or state.phase == "over":
            return world
        # Hidden money is guessed near the bot's own: everyone started with 50 and what each paid was public.
        own = state.players[seat].money
        players = tuple(p if s == seat else dataclasses.replace(p, money=max(0, own + rng.randint(-15, 15)))
                        for s, p in enumerate(world.players))
        return dataclasses.replace(world, players=players)

    def stop(self, start: PowerGridState, state: PowerGridState, seat: int) -> bool:
        return state.round >= start.round + HORIZON_ROUNDS and state.phase == "auction"

    def evaluate(self, game: Game[Any], state: PowerGridState, seat: int) -> float:
        if game.is_over(state):
            return outcome(game, state, seat)
        worth = [_worth(state, s) for s in range(len(state.players))]
        best_other = max(w for s, w in enumerate(worth) if s != seat)
        return squash(worth[seat] - best_other, 40.0)


def _worth(state: PowerGridState, seat: int) -> float:
    p = state.players[seat]
    capacity = sum(PLANTS[h.plant].cities for h in p.plants)
    stock = sum(sum(h.stock) for h in p.plants)
    return CITY_WORTH * len(p.cities) + CAPACITY_WORTH * min(capacity, len(p.cities) + 4) + p.money + 2 * stock
