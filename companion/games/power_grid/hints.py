"""Advice for a player's phone: city prices, the cheapest cities to build, the best firing, the highest safe bid."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from companion.core import Seat
from companion.games.power_grid.building import open_slots, prices
from companion.games.power_grid.buildset import BuildPlan, cheapest_sets
from companion.games.power_grid.bureaucracy import income
from companion.games.power_grid.data import COAL, HOUSES, INF, MAPS, OIL, PLANTS, RESOURCES, TRACKS, distances
from companion.games.power_grid.firing import Firing, best_firing
from companion.games.power_grid.state import Holding, PowerGridState

MAX_SET = 6


def city_prices(state: PowerGridState, seat: int) -> dict[str, int]:
    """Hint 1: the price of every city the seat could build in now, each on its own."""
    ids = MAPS[state.map].city_ids
    return {ids[c]: p for c, p in sorted(prices(state, seat).items(), key=lambda item: (item[1], item[0]))}


def build_plans(
    state: PowerGridState, seat: int, budget: int | None = None, kmax: int = MAX_SET
) -> list[BuildPlan | None]:
    """Hint 2: per k, the cheapest set of k new cities (exact), built in the order that makes it cost that."""
    player = state.players[seat]
    kmax = min(kmax, HOUSES - len(player.cities))
    slots = open_slots(state, seat)
    key = (state.map, state.regions, player.cities, tuple(sorted(slots.items())), max(kmax, 0),
           INF if budget is None else budget)
    plans = _PLANS.get(key)
    if plans is None:
        dist = distances(state.map, state.regions)
        plans = cheapest_sets(dist, player.cities, slots, key[4], key[5])
        _PLANS[key] = plans
        if len(_PLANS) > PLAN_CACHE_SIZE:
            _PLANS.popitem(last=False)
    else:
        _PLANS.move_to_end(key)
    return plans + [None] * (MAX_SET + 1 - len(plans))


# A seat's network and the open slots change only when someone builds, but its hints are asked for after every
# action at the table (bids, purchases): the plans are kept per network, slots and budget.
PLAN_CACHE_SIZE = 256
_PLANS: OrderedDict[tuple[Any, ...], list[BuildPlan | None]] = OrderedDict()


def clear_plan_cache() -> None:
    """Forget the kept plans (the benchmark measures the search itself)."""
    _PLANS.clear()


def build_sets(state: PowerGridState, seat: int) -> list[dict[str, Any]]:
    ids = MAPS[state.map].city_ids
    out = []
    for k, plan in enumerate(build_plans(state, seat, budget=state.players[seat].money)):
        if k == 0 or plan is None:
            continue
        out.append({"k": k, "cities": [ids[c] for c in plan.cities], "prices": list(plan.prices), "total": plan.total})
    return out


def firing_hint(state: PowerGridState, seat: int) -> Firing | None:
    """Hint 3: the firing that powers the most cities, then burns the cheapest resources."""
    player = state.players[seat]
    if not player.plants:
        return None
    return best_firing(player.plants, len(player.cities), state.resources)


def fuel_cost(holdings: tuple[Holding, ...], target: int, market: tuple[int, ...]) -> int | None:
    """What it costs at today's market to fuel plants powering `target` cities (or all they can), counting the stock
    already held; None when the market cannot supply it."""
    table = fuel_costs(holdings, market)
    return table[max(0, min(target, len(table) - 1))]


def fuel_costs(holdings: tuple[Holding, ...], market: tuple[int, ...]) -> list[int | None]:
    """`fuel_cost` for every target at once: entry k is the cheapest fuel for plants powering at least k cities
    (the last entry, all they can). The max-bid hint asks for seven targets per plant on offer; the subsets of
    plants and the hybrids' mixes are the same for each, so they are priced once."""
    numbers = [h.plant for h in holdings]
    held = [sum(h.stock[r] for h in holdings) for r in range(4)]
    capacity = sum(PLANTS[p].cities for p in numbers)
    # by_cities[c]: the cheapest fuel for a subset of plants powering exactly c cities.
    by_cities: list[int | None] = [None] * (capacity + 1)
    for mask in range(1 << len(numbers)):
        fired = [numbers[i] for i in range(len(numbers)) if mask >> i & 1]
        powered = 0
        need = [0, 0, 0, 0]
        hybrid = 0
        for p in fired:
            plant = PLANTS[p]
            powered += plant.cities
            if plant.hybrid:
                hybrid += plant.input
            elif plant.burns:
                need[plant.burns[0]] += plant.input
        best = by_cities[powered]
        for coal in range(hybrid + 1):
            total = 0
            for r in range(4):
                want = need[r] + (coal if r == COAL else hybrid - coal if r == OIL else 0)
                short = max(0, want - held[r])
                if short > market[r]:
                    total = -1
                    break
                total += TRACKS[r].cost(market[r], short)
            if total >= 0 and (best is None or total < best):
                best = total
        by_cities[powered] = best
    # At least k cities: the cheapest of the subsets powering k or more.
    table: list[int | None] = [None] * (capacity + 1)
    cheapest: int | None = None
    for k in range(capacity, -1, -1):
        cost = by_cities[k]
        if cost is not None and (cheapest is None or cost < cheapest):
            cheapest = cost
        table[k] = cheapest
    return table


def max_bids(state: PowerGridState, seat: int, most: int = MAX_SET) -> list[dict[str, Any]]:
    """Hint 4: per plant, the highest bid that still leaves money to fuel your plants and build N (0..most) cities."""
    player = state.players[seat]
    if state.auction is not None:
        plants = [(state.auction.plant, state.auction.price + 1)]
    else:
        plants = [(p, p) for p in state.current_market()]
    plans = build_plans(state, seat, kmax=most)
    out = []
    for plant, lowest in plants:
        holdings = (*player.plants, Holding(plant))
        if len(holdings) > state.counts.max_plants:
            # Assume the weakest old plant goes (its resources with it).
            weakest = min(player.plants, key=lambda h: (PLANTS[h.plant].cities, h.plant))
            holdings = tuple(h for h in holdings if h is not weakest)
        rows = []
        fuels = fuel_costs(holdings, state.resources)
        for n in range(most + 1):
            plan = plans[n] if n else None
            if n and plan is None:
                rows.append({"cities": n, "max_bid": None})
                continue
            fuel = fuels[min(len(player.cities) + n, len(fuels) - 1)]
            build = plan.total if plan is not None else 0
            top = None if fuel is None else player.money - fuel - build
            rows.append({"cities": n, "max_bid": top if top is not None and top >= lowest else None})
        out.append({"plant": plant, "min_bid": lowest, "by_cities": rows})
    return out


def hints(state: PowerGridState, seat: Seat) -> dict[str, Any]:
    if not isinstance(seat, int) or not 0 <= seat < state.n or not state.regions:
        return {}
    out: dict[str, Any] = {}
    phase = state.phase
    if phase == "auction" and state.discard is None:
        out["max_bid"] = max_bids(state, seat)
    if phase in ("resources", "building"):
        out["city_prices"] = city_prices(state, seat)
        out["build_sets"] = build_sets(state, seat)
    if phase == "bureaucracy" and seat in state.queue:
        best = firing_hint(state, seat)
        if best is not None:
            out["firing"] = {
                "plants": list(best.plants),
                "hybrid_coal": best.hybrid_coal,
                "powered": best.powered,
                "income": income(best.powered),
                "burn": {RESOURCES[r]: best.burn[r] for r in range(4) if best.burn[r]},
            }
    return out
