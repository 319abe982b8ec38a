"""Power Grid invariants for the playout harness: nothing created or lost, money moving only as the rules say."""

from __future__ import annotations

import heapq
from typing import Any

from companion.games.power_grid.data import MAPS, PAYOUT, PLANTS, STEP3, TRACKS
from companion.games.power_grid.resources import supply
from companion.games.power_grid.state import PowerGridState

ALL_CARDS = sorted([*PLANTS, STEP3])


def city_price(state: PowerGridState, seat: int, city: int) -> int:
    """What building in `city` costs, worked out afresh: 10/15/20 by houses there, plus Dijkstra from the network
    over the printed connections of the cities in play."""
    slot = (10, 15, 20)[sum(1 for p in state.players if city in p.cities)]
    network = state.players[seat].cities
    if not network:
        return slot
    game_map = MAPS[state.map]
    inside = {c for c, r in enumerate(game_map.city_region) if r in state.regions}
    edges: dict[int, list[tuple[int, int]]] = {}
    for a, b, cost in game_map.connections:
        if a in inside and b in inside:
            edges.setdefault(a, []).append((b, cost))
            edges.setdefault(b, []).append((a, cost))
    best = {c: 0 for c in network}
    heap = [(0, c) for c in network]
    while heap:
        d, here = heapq.heappop(heap)
        if here == city:
            return slot + d
        if d > best[here]:
            continue
        for there, cost in edges.get(here, ()):
            if d + cost < best.get(there, 10**9):
                best[there] = d + cost
                heapq.heappush(heap, (d + cost, there))
    raise AssertionError(f"no path to city {city}")


def resources_conserved(state: PowerGridState, config: Any) -> None:
    """Coal, oil, garbage and uranium: market + plants + supply is always 24/24/24/12, each plant within storage."""
    left = supply(state)
    for r, track in enumerate(TRACKS):
        assert left[r] >= 0, f"more {r} tokens in play than exist"
        assert 0 <= state.resources[r] <= len(track.slots)
    for seat, p in enumerate(state.players):
        for h in p.plants:
            plant = PLANTS[h.plant]
            assert sum(h.stock) <= plant.storage, f"seat {seat}: plant {h.plant} holds {h.stock}"
            assert all(h.stock[r] == 0 for r in range(4) if r not in plant.burns), f"plant {h.plant} holds {h.stock}"


def plants_conserved(state: PowerGridState, config: Any) -> None:
    """Every card is in exactly one place: market, a player, out of the game, or the deck (known or not)."""
    owned = [h.plant for p in state.players for h in p.plants]
    known = [*state.market, *owned, *state.removed, *state.setup_removed, *(c for c in state.deck if c)]
    assert len(known) == len(set(known)), f"a card is in two places: {sorted(known)}"
    unknown = sum(1 for c in state.deck if c == 0)
    if state.digital:
        assert unknown == 0 and not state.pool
        assert sorted(known) == ALL_CARDS
    else:
        assert not set(state.pool) & set(known)
        assert unknown <= len(state.pool)
        assert sorted([*known, *state.pool]) == ALL_CARDS
    limit = state.counts.max_plants + (1 if state.discard is not None else 0)
    assert all(len(p.plants) <= limit for p in state.players)
    assert len(state.market) <= 8 and (not state.step3_out or len(state.market) <= 6)


class MoneyByTheRules:
    """Between two states, each player's Elektro changes only by what the rules pay or charge for what happened,
    and tokens move only market -> plants (buying), plants -> supply (firing, discarding), supply -> market."""

    def __init__(self) -> None:
        self.before: PowerGridState | None = None

    def __call__(self, state: PowerGridState, config: Any) -> None:
        before, self.before = self.before, state
        if before is None or state.phase == "regions":
            return
        if state.corrections != before.corrections or state.fixes != before.fixes:
            return  # a host correction moves money, houses, plants or tokens by itself, checked where it is tested
        for seat, (p0, p1) in enumerate(zip(before.players, state.players)):
            delta = p1.money - p0.money
            assert p1.money >= 0, f"seat {seat} has negative money"
            new_plants = {h.plant for h in p1.plants} - {h.plant for h in p0.plants}
            new_cities = p1.cities[len(p0.cities) :]
            bought = [before.resources[r] - state.resources[r] for r in range(4)]
            if new_plants:
                (plant,) = new_plants
                auction = before.auction
                if auction is not None:
                    # The last pass closed the auction: its leader pays the high bid.
                    assert auction.plant == plant and auction.leader == seat
                    assert -delta == auction.price, f"seat {seat} paid {-delta}, not the bid {auction.price}"
                else:
                    # Opened with nobody left to bid: the opening bid, at least the plant's number.
                    assert plant <= -delta <= p0.money, f"seat {seat} paid {-delta} for plant {plant}"
            elif new_cities:
                (city,) = new_cities
                assert -delta == city_price(before, seat, city), f"seat {seat} paid {-delta} for city {city}"
            elif before.phase == "resources" and any(b > 0 for b in bought) and before.queue[:1] == (seat,):
                cost = sum(TRACKS[r].cost(before.resources[r], bought[r]) for r in range(4) if bought[r] > 0)
                assert -delta == cost, f"seat {seat} paid {-delta} for tokens costing {cost}"
                gained = [p1.stock()[r] - p0.stock()[r] for r in range(4)]
                assert gained == [max(b, 0) for b in bought], "tokens left the market but not onto the buyer's plants"
            elif before.phase == "bureaucracy" and before.powered[seat] < 0 and state.powered[seat] >= 0:
                assert delta == PAYOUT[min(state.powered[seat], 20)], f"seat {seat} earned {delta}"
                capacity = sum(PLANTS[h.plant].cities for h in p0.plants)
                assert state.powered[seat] <= min(capacity, len(p0.cities))
            else:
                assert delta == 0, f"seat {seat}'s money changed by {delta} in {before.phase}"
            if not (before.phase == "resources" and before.queue[:1] == (seat,)):
                # Tokens reach a plant only by being bought; moving, firing and discarding never add any.
                assert all(a <= b for a, b in zip(p1.stock(), p0.stock())), f"seat {seat} gained tokens"
        row = before.counts.resupply
        for r in range(4):
            added = state.resources[r] - before.resources[r]
            if added > 0:
                # Tokens come back to the market only in the resupply that ends phase 5.
                assert before.phase == "bureaucracy" and state.phase != "bureaucracy"
                assert added <= row[r][before.step - 1]


def invariants() -> list[Any]:
    return [resources_conserved, plants_conserved, MoneyByTheRules()]
