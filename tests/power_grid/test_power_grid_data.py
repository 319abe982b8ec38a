"""The project's own Power Grid data: totals of plants, payout, resource market, player counts and both maps."""

from __future__ import annotations

import collections
import itertools

import pytest

from companion.games.power_grid.data import (
    COUNTS,
    INITIAL_MARKET,
    MAPS,
    PAYOUT,
    PLANTS,
    RESOURCES,
    SLOT_PRICES,
    STARTING_MONEY,
    STEP3_CARDS,
    TOP_OF_DECK,
    TRACKS,
    distances,
)
from companion.games.power_grid.regions import valid_sets


def test_42_plants_and_the_step3_card():
    assert len(PLANTS) == 42 and STEP3_CARDS == 1
    assert sorted(PLANTS) == [*range(3, 41), 42, 44, 46, 50]
    kinds = collections.Counter(p.kind for p in PLANTS.values())
    assert kinds == {"coal": 9, "oil": 8, "ecological": 7, "garbage": 6, "uranium": 6, "hybrid": 5, "fusion": 1}
    for p in PLANTS.values():
        assert p.storage == 2 * p.input
        assert (p.input == 0) == (p.kind in ("ecological", "fusion"))
        assert len(p.burns) == {"hybrid": 2, "ecological": 0, "fusion": 0}.get(p.kind, 1)
    assert sum(p.cities for p in PLANTS.values()) == 156
    assert tuple(range(3, 11)) == INITIAL_MARKET and TOP_OF_DECK == 13


def test_payout_for_0_to_20_cities():
    assert len(PAYOUT) == 21
    assert PAYOUT[0] == 10 and PAYOUT[1] == 22 and PAYOUT[2] == 33 and PAYOUT[20] == 150
    assert all(a < b for a, b in itertools.pairwise(PAYOUT))
    assert sum(PAYOUT) == 2015


def test_resource_market_spaces_tokens_and_start_fill():
    assert [TRACKS[r].tokens for r in range(4)] == [24, 24, 24, 12]
    assert [len(TRACKS[r].slots) for r in range(4)] == [24, 24, 24, 12]
    assert [TRACKS[r].start for r in range(4)] == [24, 18, 6, 2]
    assert [TRACKS[r].cheapest(TRACKS[r].start) for r in range(4)] == [1, 3, 7, 14]
    assert TRACKS[3].slots == (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16)
    for r in range(3):
        assert TRACKS[r].spaces == tuple((price, 3) for price in range(1, 9))
    assert RESOURCES == ("coal", "oil", "garbage", "uranium")


def test_resupply_by_players_and_step():
    table = {n: COUNTS[n].resupply for n in range(2, 7)}
    assert table[2] == ((3, 4, 3), (2, 2, 4), (1, 2, 3), (1, 1, 1))
    assert table[4] == ((5, 6, 4), (3, 4, 5), (2, 3, 4), (1, 2, 2))
    assert table[6] == ((7, 9, 6), (5, 6, 7), (3, 5, 6), (2, 3, 3))
    assert sum(v for n in table for row in table[n] for v in row) == 210


def test_player_count_table():
    rows = {n: (c.regions, c.removed_at_setup, c.step2_cities, c.end_cities, c.max_plants) for n, c in COUNTS.items()}
    assert rows == {
        2: (3, 8, 10, 21, 4),
        3: (3, 8, 7, 17, 3),
        4: (4, 4, 7, 17, 3),
        5: (5, 0, 7, 15, 3),
        6: (5, 0, 6, 14, 3),
    }
    assert STARTING_MONEY == 50 and SLOT_PRICES == (10, 15, 20)


@pytest.mark.parametrize(("map_id", "connections"), [("germany", 83), ("usa", 87)])
def test_maps_have_42_cities_in_6_regions_of_7(map_id, connections):
    game_map = MAPS[map_id]
    assert len(game_map.city_ids) == 42 == len(set(game_map.city_ids))
    assert collections.Counter(game_map.city_region) == {r.id: 7 for r in game_map.regions}
    assert len(game_map.regions) == 6
    assert len(game_map.connections) == connections
    pairs = {frozenset((a, b)) for a, b, _ in game_map.connections}
    assert len(pairs) == connections and all(len(p) == 2 for p in pairs)
    assert all(0 <= cost <= 28 for _, _, cost in game_map.connections)
    # Region adjacency as printed agrees with the connections that cross region borders.
    crossing = collections.defaultdict(set)
    for a, b, _ in game_map.connections:
        ra, rb = game_map.city_region[a], game_map.city_region[b]
        if ra != rb:
            crossing[ra].add(rb)
            crossing[rb].add(ra)
    assert {r.id: set(r.adjacent) for r in game_map.regions} == dict(crossing)


@pytest.mark.parametrize("map_id", ["germany", "usa"])
@pytest.mark.parametrize("count", [3, 4, 5])
def test_every_contiguous_region_set_is_connected_inside(map_id, count):
    sets = valid_sets(map_id, count)
    assert sets
    for regions in sets:
        dist = distances(map_id, regions)
        inside = MAPS[map_id].cities_in(regions)
        assert len(inside) == 7 * count
        assert all(dist[a][b] < 10**6 for a in inside for b in inside)


def test_golden_distances():
    game_map = MAPS["germany"]
    i = game_map.index
    everywhere = tuple(r.id for r in game_map.regions)
    dist = distances("germany", everywhere)
    assert dist[i["essen"]][i["aachen"]] == 11  # Essen - Düsseldorf 2, Düsseldorf - Aachen 9
    assert dist[i["essen"]][i["duisburg"]] == 0
    usa = MAPS["usa"].index
    assert distances("usa", ("nw", "sw", "mid", "s", "se", "ne"))[usa["seattle"]][usa["portland"]] == 3
