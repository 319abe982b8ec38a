"""The game's static facts (plants, payout, resource market, player counts, maps) loaded from the package's JSON."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from importlib import resources as importlib_resources
from typing import Any

RESOURCES: tuple[str, ...] = ("coal", "oil", "garbage", "uranium")
COAL, OIL, GARBAGE, URANIUM = range(4)
STEP3 = 99  # the Step 3 card's place in the deck and the market: it sorts above every plant
INF = 10**6


_PACKAGE = __package__ or "companion.games.power_grid"


def _load(name: str) -> Any:
    return json.loads(importlib_resources.files(_PACKAGE).joinpath("data").joinpath(name).read_text(encoding="utf-8"))


@dataclasses.dataclass(frozen=True)
class Plant:
    """One power plant card: what it burns, how much per firing, how many cities it powers."""

    number: int
    kind: str
    burns: tuple[int, ...]  # resource indexes; two for a hybrid (coal and oil), none for ecological/fusion
    input: int
    storage: int
    cities: int

    @property
    def hybrid(self) -> bool:
        return len(self.burns) == 2


def _plants() -> dict[int, Plant]:
    data = _load("plants.json")
    out = {}
    for p in data["plants"]:
        burns = tuple(RESOURCES.index(r) for r in p["burns"])
        out[p["number"]] = Plant(p["number"], p["kind"], burns, p["input"], p["storage"], p["cities"])
    return out


PLANTS: dict[int, Plant] = _plants()
_PLANT_FILE = _load("plants.json")
INITIAL_MARKET: tuple[int, ...] = tuple(_PLANT_FILE["initial_market"])
TOP_OF_DECK: int = _PLANT_FILE["top_of_deck"]
STEP3_CARDS: int = _PLANT_FILE["step3_card"]

_RULES = _load("rules.json")
STARTING_MONEY: int = _RULES["starting_money"]
HOUSES: int = _RULES["houses_per_player"]
SLOT_PRICES: tuple[int, ...] = tuple(_RULES["city_slot_prices"])
PAYOUT: tuple[int, ...] = tuple(_RULES["payout"])


@dataclasses.dataclass(frozen=True)
class Track:
    """A resource's row of price spaces; tokens always sit on the most expensive spaces."""

    resource: int
    slots: tuple[int, ...]  # the price of each token place, cheapest first (a space of 3 gives 3 places)
    spaces: tuple[tuple[int, int], ...]  # (price, capacity) as printed
    tokens: int  # tokens of this resource in the whole game
    start: int  # tokens on the market at setup

    def cost(self, on_market: int, count: int) -> int:
        """What `count` tokens cost when `on_market` are there: the cheapest are taken first."""
        first = len(self.slots) - on_market
        return sum(self.slots[first : first + count])

    def cheapest(self, on_market: int) -> int | None:
        return self.slots[len(self.slots) - on_market] if on_market else None

    def prices_of(self, on_market: int, count: int) -> tuple[int, int]:
        """Prices of the dearest and the cheapest of `count` tokens placed on top of `on_market` (resupply)."""
        top = len(self.slots) - on_market - 1
        return self.slots[top], self.slots[top - count + 1]


def _tracks() -> tuple[Track, ...]:
    out = []
    for i, name in enumerate(RESOURCES):
        t = _RULES["tracks"][name]
        slots = tuple(price for price, capacity in t["spaces"] for _ in range(capacity))
        out.append(Track(i, slots, tuple((p, c) for p, c in t["spaces"]), t["tokens"], t["start"]))
    return tuple(out)


TRACKS: tuple[Track, ...] = _tracks()


@dataclasses.dataclass(frozen=True)
class PlayerCount:
    regions: int
    removed_at_setup: int
    step2_cities: int
    end_cities: int
    max_plants: int
    resupply: tuple[tuple[int, int, int], ...]  # per resource, per step


def _counts() -> dict[int, PlayerCount]:
    out = {}
    for n, row in _RULES["player_counts"].items():
        resupply = tuple(tuple(_RULES["resupply"][n][r]) for r in RESOURCES)
        out[int(n)] = PlayerCount(
            row["regions"],
            row["removed_at_setup"],
            row["step2_cities"],
            row["end_cities"],
            row["max_plants"],
            resupply,  # type: ignore[arg-type]
        )
    return out


COUNTS: dict[int, PlayerCount] = _counts()


@dataclasses.dataclass(frozen=True)
class Region:
    id: str
    name: str
    colour: str
    adjacent: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class GameMap:
    """A board: cities by index, their regions, and the printed connection costs."""

    id: str
    title: str
    regions: tuple[Region, ...]
    city_ids: tuple[str, ...]
    city_names: tuple[str, ...]
    city_region: tuple[str, ...]
    connections: tuple[tuple[int, int, int], ...]

    @property
    def index(self) -> dict[str, int]:
        return _index(self.id)

    def region(self, region_id: str) -> Region:
        for r in self.regions:
            if r.id == region_id:
                return r
        raise KeyError(region_id)

    def cities_in(self, regions: tuple[str, ...]) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.city_region) if r in regions)


def _map(map_id: str) -> GameMap:
    data = _load(f"map_{map_id}.json")
    ids = tuple(c["id"] for c in data["cities"])
    pos = {c: i for i, c in enumerate(ids)}
    regions = tuple(Region(r["id"], r["name"], r["colour"], tuple(r["adjacent"])) for r in data["regions"])
    return GameMap(
        data["id"],
        data["title"],
        regions,
        ids,
        tuple(c["name"] for c in data["cities"]),
        tuple(c["region"] for c in data["cities"]),
        tuple((pos[a], pos[b], cost) for a, b, cost in data["connections"]),
    )


MAPS: dict[str, GameMap] = {m: _map(m) for m in ("germany", "usa")}


@cache
def _index(map_id: str) -> dict[str, int]:
    return {c: i for i, c in enumerate(MAPS[map_id].city_ids)}


@cache
def distances(map_id: str, regions: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Cheapest connection cost between every two cities, paths staying inside the chosen regions (INF outside).

    A path may pass through any city, full or not, so this is a plain all-pairs shortest path.
    """
    game_map = MAPS[map_id]
    n = len(game_map.city_ids)
    inside = [r in regions for r in game_map.city_region]
    dist = [[INF] * n for _ in range(n)]
    for i in range(n):
        if inside[i]:
            dist[i][i] = 0
    for a, b, cost in game_map.connections:
        if inside[a] and inside[b] and cost < dist[a][b]:
            dist[a][b] = dist[b][a] = cost
    for k in range(n):
        if not inside[k]:
            continue
        dk = dist[k]
        for i in range(n):
            dik = dist[i][k]
            if dik >= INF:
                continue
            di = dist[i]
            for j in range(n):
                alt = dik + dk[j]
                if alt < di[j]:
                    di[j] = alt
    return tuple(tuple(row) for row in dist)
