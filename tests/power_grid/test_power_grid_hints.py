"""The hints: city prices, the exact cheapest set of k cities, the best firing, and the highest safe bid."""

from __future__ import annotations

import itertools
import random

import pytest
from pg_table import GAME, city, money, play, position, start

from companion.games.power_grid.actions import BuildCity, Fire
from companion.games.power_grid.data import MAPS, PLANTS, TRACKS, distances
from companion.games.power_grid.firing import firings
from companion.games.power_grid.hints import build_plans, city_prices, fuel_cost, fuel_costs, hints, max_bids
from companion.games.power_grid.regions import valid_sets
from companion.games.power_grid.state import Holding


def building(regions, map_id="germany", **players):
    """A building phase in any set of regions (random positions use 3-5 regions whatever the player count)."""
    state = start(4, order=(0, 1, 2, 3), map_id=map_id)
    return position(
        state,
        regions=regions,
        phase="building",
        queue=(3, 2, 1, 0),
        players={int(k[1:]): v for k, v in players.items()},
    )


def kruskal(dist, nodes):
    """Minimum spanning tree weight over `nodes` (the network already merged into one node by the caller)."""
    parent = {n: n for n in nodes}

    def root(n):
        while parent[n] != n:
            n = parent[n]
        return n

    total = 0
    for w, a, b in sorted(((dist(a, b), a, b) for a, b in itertools.combinations(nodes, 2)), key=lambda e: e[0]):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
            total += w
    return total


def brute_force(state, seat, k):
    """The cheapest k-set by trying every set: slots plus a spanning tree with the network as one node."""
    d = distances(state.map, state.regions)
    network = state.players[seat].cities
    taken = [sum(1 for p in state.players if c in p.cities) for c in range(42)]
    free = [c for c in MAPS[state.map].cities_in(state.regions) if c not in network and taken[c] < state.step]

    def dist(a, b):
        if a == "net":
            return min(d[n][b] for n in network)
        if b == "net":
            return min(d[n][a] for n in network)
        return d[a][b]

    best = None
    for chosen in itertools.combinations(free, k):
        slots = sum((10, 15, 20)[taken[c]] for c in chosen)
        nodes = [*chosen, "net"] if network else list(chosen)
        cost = slots + kruskal(dist, nodes)
        best = cost if best is None or cost < best else best
    return best


def random_position(rng, map_id, count, cities):
    regions = rng.choice(valid_sets(map_id, count))
    game_map = MAPS[map_id]
    inside = [game_map.city_ids[c] for c in game_map.cities_in(regions)]
    rng.shuffle(inside)
    mine = inside[:cities]
    others = inside[cities : cities + rng.randint(0, 8)]
    step = rng.choice((1, 2, 3))
    state = building(
        regions,
        map_id=map_id,
        s0={"cities": mine, "money": 400},
        s1={"cities": others[::2]},
        s2={"cities": others[1::2]},
    )
    # A market of high plants, so no plant leaves (and no draw interrupts) while these tests build.
    return position(state, step=step, queue=(0,), market=(33, 34, 35, 36, 37, 38, 39, 40))


def test_city_prices_hint_lists_every_city_you_could_build_in():
    state = building(("nw", "w", "sw", "e"), s3={"cities": ["essen"]}, s0={"cities": ["dusseldorf"]})
    prices = city_prices(state, 3)
    assert prices["aachen"] == 21 and prices["duisburg"] == 10 and "dusseldorf" not in prices
    assert "essen" not in prices and len(prices) == 28 - 2
    assert list(prices.values()) == sorted(prices.values())


@pytest.mark.parametrize("map_id", ["germany", "usa"])
def test_the_cheapest_set_of_k_cities_is_exact_against_brute_force(map_id):
    rng = random.Random(f"sets:{map_id}")
    for trial in range(20):
        count, kmax = (3, 4) if trial % 2 else (5, 3)
        state = random_position(rng, map_id, count, rng.choice((0, 0, 1, 2, 4, 7)))
        plans = build_plans(state, 0)
        for k in range(1, kmax + 1):
            assert plans[k].total == brute_force(state, 0, k), (trial, k)
            assert len(set(plans[k].cities)) == k and sum(plans[k].prices) == plans[k].total


def test_the_cheapest_set_of_six_is_exact_against_brute_force():
    rng = random.Random("six")
    for _ in range(4):
        state = random_position(rng, "germany", 3, rng.choice((0, 2)))
        taken = rng.sample([c for c in MAPS["germany"].cities_in(state.regions) if c not in state.players[0].cities], 6)
        state = position(state, step=1, players={3: {"cities": [MAPS["germany"].city_ids[c] for c in taken]}})
        assert build_plans(state, 0)[6].total == brute_force(state, 0, 6)


def test_a_set_built_in_the_hinted_order_costs_exactly_the_hinted_total():
    rng = random.Random(5)
    for _ in range(6):
        state = random_position(rng, "usa", 5, rng.choice((0, 1, 3)))
        plan = build_plans(state, 0, kmax=5)[5]
        after = state
        for c in plan.cities:
            after = play(after, BuildCity(0, MAPS["usa"].city_ids[c]))
        assert money(state)[0] - money(after)[0] == plan.total


def test_the_exact_set_never_costs_more_than_picking_the_cheapest_city_again_and_again():
    rng = random.Random(9)
    saved = 0
    for _ in range(25):
        state = random_position(rng, "germany", 5, rng.choice((0, 1, 2, 5)))
        greedy, after = 0, state
        for _ in range(4):
            prices = city_prices(after, 0)
            cheapest = min(prices, key=prices.get)
            greedy += prices[cheapest]
            after = play(after, BuildCity(0, cheapest))
        exact = build_plans(state, 0)[4].total
        assert exact <= greedy
        saved += greedy - exact
    assert saved > 0


def test_build_sets_respect_the_money_left():
    state = building(("nw", "w", "sw", "e"), s3={"cities": ["essen"], "money": 25})
    sets = hints(position(state, phase="resources", queue=(3,)), 3)["build_sets"]
    assert [s["k"] for s in sets] == [1, 2]
    assert sets[0]["cities"] == ["duisburg"] and sets[1]["total"] <= 25


def random_holdings(rng):
    numbers = rng.sample(sorted(p for p in PLANTS if PLANTS[p].burns or rng.random() < 0.3), rng.randint(1, 3))
    out = []
    for n in numbers:
        plant = PLANTS[n]
        stock = [0, 0, 0, 0]
        for _ in range(rng.randint(0, plant.storage)):
            stock[rng.choice(plant.burns)] += 1
        out.append(Holding(n, tuple(stock)))
    return tuple(sorted(out, key=lambda h: h.plant))


def arrangements(holdings):
    """Every legal way to store the player's tokens on their plants (each plant its own types, within storage)."""
    totals = [sum(h.stock[r] for h in holdings) for r in range(4)]
    plants = [PLANTS[h.plant] for h in holdings]

    def place(r, i, left, stocks):
        if r == 4:
            yield [tuple(s) for s in stocks]
            return
        if i == len(plants):
            if left == 0:
                yield from place(r + 1, 0, totals[r + 1] if r + 1 < 4 else 0, stocks)
            return
        room = plants[i].storage - sum(stocks[i]) if r in plants[i].burns else 0
        for take in range(min(room, left) + 1):
            stocks[i][r] += take
            yield from place(r, i + 1, left - take, stocks)
            stocks[i][r] -= take

    yield from place(0, 0, totals[0], [[0, 0, 0, 0] for _ in plants])


def test_the_firing_solver_is_exact_over_every_arrangement_subset_and_hybrid_mix():
    rng = random.Random(3)
    with_hybrid = 0
    for _ in range(300):
        holdings = random_holdings(rng)
        with_hybrid += any(PLANTS[h.plant].hybrid for h in holdings)
        cities = rng.randint(0, 12)
        market = tuple(rng.randint(0, len(TRACKS[r].slots)) for r in range(4))
        feasible = {}
        for stocks in arrangements(holdings):
            for size in range(len(holdings) + 1):
                for fired in itertools.combinations(range(len(holdings)), size):
                    need = [0, 0, 0, 0]
                    mixes = [()]
                    for i in fired:
                        plant = PLANTS[holdings[i].plant]
                        if plant.hybrid:
                            mixes = [(*m, c) for m in mixes for c in range(plant.input + 1)]
                        elif plant.burns:
                            need[plant.burns[0]] += plant.input
                    hybrids = [i for i in fired if PLANTS[holdings[i].plant].hybrid]
                    for mix in mixes:
                        ok = all(
                            stocks[i][PLANTS[holdings[i].plant].burns[0]] >= PLANTS[holdings[i].plant].input
                            for i in fired
                            if len(PLANTS[holdings[i].plant].burns) == 1
                        )
                        ok = ok and all(
                            stocks[i][0] >= c and stocks[i][1] >= PLANTS[holdings[i].plant].input - c
                            for i, c in zip(hybrids, mix)
                        )
                        if ok:
                            key = (tuple(holdings[i].plant for i in fired), sum(mix))
                            feasible[key] = True
        solver = {
            (f.plants, f.hybrid_coal) for coal_options in [firings(holdings, cities, market)] for f in coal_options
        }
        # Every subset the solver offers can fire in some arrangement, and every subset that can fire is offered.
        assert {k[0] for k in solver} == {k[0] for k in feasible}
        assert solver <= set(feasible)
        best = firings(holdings, cities, market)[0]
        most = max(min(sum(PLANTS[p].cities for p in plants), cities) for plants, _ in feasible)
        assert best.powered == most
        cheapest = min(
            f.cost
            for f in [
                next(x for x in firings(holdings, cities, market) if x.plants == plants) for plants, _ in feasible
            ]
            if f.powered == most
        )
        assert best.cost == cheapest
    assert with_hybrid > 50


def test_the_best_firing_is_offered_first_and_named_in_the_hints():
    state = start(4, order=(0, 1, 2, 3))
    state = position(
        state,
        phase="bureaucracy",
        queue=(0, 1, 2, 3),
        powered=(-1, -1, -1, -1),
        players={0: {"plants": [(12, {"coal": 2, "oil": 2}), (7, {"oil": 3})], "cities": ["kiel", "hamburg"]}},
        resources=(24, 3, 6, 2),
    )
    hint = hints(state, 0)["firing"]
    assert hint == {"plants": [12], "hybrid_coal": 2, "powered": 2, "income": 33, "burn": {"coal": 2}}
    assert GAME.legal_actions(state, 0)[0] == Fire(0, (12,), 2)


def test_max_bid_leaves_money_to_fuel_the_plants_and_build_n_cities():
    state = start(4, order=(0, 1, 2, 3))
    rows = {r["plant"]: r for r in max_bids(state, 0)}
    assert set(rows) == {3, 4, 5, 6}
    by_cities = {row["cities"]: row["max_bid"] for row in rows[4]["by_cities"]}
    # Plant 4 burns 2 coal (1 + 1 at the market) to power 1 city; the first city costs 10.
    assert by_cities[0] == 50
    assert by_cities[1] == 50 - 2 - 10
    two = build_plans(state, 0)[2].total
    assert by_cities[2] == 50 - 2 - two  # plant 4 powers only 1 city: fuel stays 2
    oil = {row["cities"]: row["max_bid"] for row in rows[3]["by_cities"]}
    assert oil[1] == 50 - (3 + 3) - 10
    assert city("germany", "kiel") in MAPS["germany"].cities_in(state.regions)


def test_the_fuel_for_every_target_at_once_is_the_cheapest_subset_powering_at_least_that_many():
    """`fuel_costs` prices the subsets once for all targets (the max-bid hint asks for seven per plant); each entry
    is what a search of its own finds: the cheapest fuel, stock held counted, over every subset of plants powering
    at least that many cities (all they can, past their capacity) and every coal/oil mix of its hybrids."""
    rng = random.Random(8)
    checked = 0
    for _ in range(400):
        holdings = random_holdings(rng)
        market = tuple(rng.randint(0, len(TRACKS[r].slots)) for r in range(4))
        held = [sum(h.stock[r] for h in holdings) for r in range(4)]
        capacity = sum(PLANTS[h.plant].cities for h in holdings)
        table = fuel_costs(holdings, market)
        assert len(table) == capacity + 1
        for target in range(capacity + 3):
            costs = []
            for size in range(len(holdings) + 1):
                for fired in itertools.combinations(holdings, size):
                    plants = [PLANTS[h.plant] for h in fired]
                    if sum(p.cities for p in plants) < min(target, capacity):
                        continue
                    need = [0, 0, 0, 0]
                    for plant in plants:
                        if not plant.hybrid and plant.burns:
                            need[plant.burns[0]] += plant.input
                    hybrid = sum(p.input for p in plants if p.hybrid)
                    for coal in range(hybrid + 1):
                        want = [need[0] + coal, need[1] + hybrid - coal, need[2], need[3]]
                        short = [max(0, want[r] - held[r]) for r in range(4)]
                        if all(short[r] <= market[r] for r in range(4)):
                            costs.append(sum(TRACKS[r].cost(market[r], short[r]) for r in range(4)))
            expected = min(costs) if costs else None
            assert fuel_cost(holdings, target, market) == expected
            assert table[min(target, capacity)] == expected
            checked += expected is not None
    assert checked > 1000
