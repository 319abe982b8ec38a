"""Selfplay bots: a simple heuristic player that follows the hints (the random bot comes from the core)."""

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

# The most new cities the bot keeps money for (fuel and houses) when it bids.
BUILD_RESERVE = 3
# The same for the bot as it was before plants had a price to it (`priced=False`): it kept money for this many new
# cities only once its plants could power more than it had, so in round 1 it bid everything it had.
UNPRICED_BUILD_RESERVE = 2
# What a plant is worth above its number, per city of capacity it adds; a plant that needs no fuel is worth more.
PREMIUM_PER_CITY = 3
NO_FUEL_PREMIUM = 4


class HeuristicBot:
    """Buys the strongest plant it can afford while keeping money to fuel and build, fuels its plants, builds the
    cheapest set of cities its plants can power (plus one), and fires the best firing.

    `priced=False` is the bot as it was before its bids had a ceiling (the arena's `baseline`, what the bot levels
    are measured against): it bids whatever keeps money to fuel and build, which in round 1, with no plant yet, is
    all it has.
    """

    def __init__(self, priced: bool = True) -> None:
        self.priced = priced

    def choose(
        self, game: Any, state: PowerGridState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if seat == TABLE or not isinstance(seat, int):
            return legal[0]
        kinds = {type(a) for a in legal}
        if Fire in kinds:
            return legal[0]  # the solver's best firing is offered first
        if DiscardPlant in kinds:
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
        """Per plant, the most the bot pays: never more than the plant is worth to it (its number plus a premium
        for the cities it adds), and always keeping money to fuel its plants and build the cities they can power
        (up to a few)."""
        player = state.players[seat]
        if not self.priced:
            capacity = sum(PLANTS[h.plant].cities for h in player.plants)
            reserve = 0 if capacity <= len(player.cities) else UNPRICED_BUILD_RESERVE
            return {row["plant"]: row["by_cities"][reserve]["max_bid"] for row in max_bids(state, seat, most=reserve)}
        out: dict[int, int | None] = {}
        rows = {row["plant"]: row for row in max_bids(state, seat, most=BUILD_RESERVE)}
        for plant, row in rows.items():
            worth = self._worth(state, seat, plant)
            if worth is None:
                out[plant] = None
                continue
            capacity = self._capacity_with(state, seat, plant)
            keep_for = min(BUILD_RESERVE, max(0, capacity - len(player.cities)))
            by_cities = row["by_cities"]
            affordable = None
            for n in range(keep_for, -1, -1):
                if by_cities[n]["max_bid"] is not None and (n > 0 or keep_for == 0):
                    affordable = by_cities[n]["max_bid"]
                    break
            out[plant] = None if affordable is None else min(affordable, worth)
        return out

    @staticmethod
    def _capacity_with(state: PowerGridState, seat: int, plant: int) -> int:
        """The cities the bot's plants could power with this plant (its weakest dropped when over the limit)."""
        cities = sorted(PLANTS[h.plant].cities for h in state.players[seat].plants)
        if len(cities) >= state.counts.max_plants:
            cities = cities[1:]
        return sum(cities) + PLANTS[plant].cities

    def _worth(self, state: PowerGridState, seat: int, plant: int) -> int | None:
        """A plant's value to the bot: its number plus a premium for the capacity it adds; None if it adds none."""
        player = state.players[seat]
        before = sum(PLANTS[h.plant].cities for h in player.plants)
        gain = self._capacity_with(state, seat, plant) - before
        if gain <= 0:
            return None
        premium = PREMIUM_PER_CITY * gain + (NO_FUEL_PREMIUM if not PLANTS[plant].burns else 0)
        return plant + premium

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
