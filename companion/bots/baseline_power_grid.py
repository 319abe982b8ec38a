"""Power Grid's heuristic bot as it was when the bot levels arrived: the baseline `normal` is measured against."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.core import TABLE, Action, Seat
from companion.games.power_grid.actions import (
    Bid,
    BuildCity,
    BuyResources,
    DeclineToOpen,
    DiscardPlant,
    EndBuilding,
    EndBuying,
    FinishDiscard,
    Fire,
    MoveResources,
    OpenAuction,
    Pass,
)
from companion.games.power_grid.data import MAPS, PLANTS, RESOURCES, TRACKS
from companion.games.power_grid.hints import MAX_SET, build_plans, fuel_cost, max_bids
from companion.games.power_grid.state import PowerGridState

# How many new cities the bot keeps money for when it bids.
BUILD_RESERVE = 2


class BaselineHeuristicBot:
    """Buys the strongest plant it can afford while keeping money to fuel and build, fuels its plants, builds the
    cheapest set of cities its plants can power (plus one), and fires the best firing."""

    def choose(
        self, game: Any, state: PowerGridState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if seat == TABLE or not isinstance(seat, int):
            return legal[0]
        kinds = {type(a) for a in legal}
        if Fire in kinds:
            return legal[0]  # the solver's best firing is offered first
        if DiscardPlant in kinds:
            # Moving resources first is also legal now (rulings, issue 14); the baseline only ever discards.
            discards = [a for a in legal if isinstance(a, DiscardPlant)]
            return min(discards, key=lambda a: (PLANTS[a.plant].cities, a.plant))
        if FinishDiscard in kinds:
            pending = state.discard
            moves = [a for a in legal if isinstance(a, MoveResources) and pending and a.from_plant == pending.plant]
            return max(moves, key=lambda a: a.count) if moves else legal[-1]
        if Bid in kinds or Pass in kinds:
            return self._bid(state, seat, legal)
        if OpenAuction in kinds or DeclineToOpen in kinds:
            return self._open(state, seat, legal)
        if EndBuying in kinds:
            return self._buy(state, seat, legal)
        if EndBuilding in kinds:
            return self._build(state, seat, legal)
        return legal[0]

    def _limits(self, state: PowerGridState, seat: int) -> dict[int, int | None]:
        """Per plant, the most the bot pays: what keeps money to fuel its plants and, unless its plants already
        power fewer cities than it has, to build a couple more."""
        player = state.players[seat]
        capacity = sum(PLANTS[h.plant].cities for h in player.plants)
        reserve = 0 if capacity <= len(player.cities) else BUILD_RESERVE
        return {row["plant"]: row["by_cities"][reserve]["max_bid"] for row in max_bids(state, seat, most=reserve)}

    def _builds_this_round(self, state: PowerGridState, seat: int) -> int:
        """How many cities the bot can both build and fuel this round (at most one more than its plants power)."""
        player = state.players[seat]
        capacity = sum(PLANTS[h.plant].cities for h in player.plants)
        most = min(MAX_SET, max(1, capacity - len(player.cities) + 1))
        plans = build_plans(state, seat, kmax=most)
        best = 0
        for k in range(1, most + 1):
            plan = plans[k]
            if plan is None:
                break
            fuel = fuel_cost(player.plants, len(player.cities) + k, state.resources)
            if fuel is not None and plan.total + fuel <= player.money:
                best = k
        return best

    def _improves(self, state: PowerGridState, seat: int, plant: int) -> bool:
        player = state.players[seat]
        if len(player.plants) < state.counts.max_plants:
            return True
        return PLANTS[plant].cities > min(PLANTS[h.plant].cities for h in player.plants)

    def _open(self, state: PowerGridState, seat: int, legal: Sequence[Action]) -> Action:
        opens = [a for a in legal if isinstance(a, OpenAuction)]
        limits = self._limits(state, seat)
        wanted = []
        for a in opens:
            if a.bid != a.plant or not self._improves(state, seat, a.plant):
                continue
            limit = limits.get(a.plant)
            if limit is not None and limit >= a.plant:
                wanted.append(a)
        if wanted:
            return max(wanted, key=lambda a: (PLANTS[a.plant].cities, -a.plant))
        decline = [a for a in legal if isinstance(a, DeclineToOpen)]
        if decline:
            return decline[0]
        return min(opens, key=lambda a: (a.bid, a.plant))

    def _bid(self, state: PowerGridState, seat: int, legal: Sequence[Action]) -> Action:
        auction = state.auction
        assert auction is not None
        bids = [a for a in legal if isinstance(a, Bid)]
        passing = next(a for a in legal if isinstance(a, Pass))
        if not bids or not self._improves(state, seat, auction.plant):
            return passing
        limit = self._limits(state, seat).get(auction.plant)
        lowest = min(bids, key=lambda a: a.amount)
        if limit is None or lowest.amount > limit:
            return passing
        return lowest

    def _buy(self, state: PowerGridState, seat: int, legal: Sequence[Action]) -> Action:
        player = state.players[seat]
        target = len(player.cities) + self._builds_this_round(state, seat)
        # Fuel the strongest plants first, up to what the network (plus the next builds) can use.
        powered = 0
        for h in sorted(player.plants, key=lambda h: -PLANTS[h.plant].cities):
            if powered >= target:
                break
            plant = PLANTS[h.plant]
            powered += plant.cities
            if not plant.burns or sum(h.stock) >= plant.input:
                continue
            choices = [a for a in legal if isinstance(a, BuyResources) and a.plant == h.plant and a.count == 1]
            if choices:
                return min(
                    choices,
                    key=lambda a: TRACKS[RESOURCES.index(a.resource)].cost(
                        state.resources[RESOURCES.index(a.resource)], 1
                    ),
                )
        return next(a for a in legal if isinstance(a, EndBuying))

    def _build(self, state: PowerGridState, seat: int, legal: Sequence[Action]) -> Action:
        player = state.players[seat]
        capacity = sum(PLANTS[h.plant].cities for h in player.plants)
        want = max(1, capacity - len(player.cities) + 1)
        end = next(a for a in legal if isinstance(a, EndBuilding))
        if len(legal) == 1:
            return end
        most = min(want, MAX_SET)
        plans = build_plans(state, seat, budget=player.money, kmax=most)
        for k in range(most, 0, -1):
            plan = plans[k]
            if plan is not None:
                city = MAPS[state.map].city_ids[plan.cities[0]]
                return BuildCity(seat, city)
        return end
