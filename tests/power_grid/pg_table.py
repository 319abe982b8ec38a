"""Test helpers for Power Grid: a known setup, action scripts, and positions built from the rulebook's terms."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from typing import Any

from companion.core import HOST, Action, LogMessage, get_game
from companion.games.power_grid.actions import ChooseRegions
from companion.games.power_grid.data import MAPS
from companion.games.power_grid.state import Holding, Player, PowerGridState

GAME = get_game("power_grid")

DEFAULT_REGIONS = {
    "germany": {3: ("nw", "ne", "w"), 4: ("nw", "ne", "w", "e"), 5: ("nw", "ne", "w", "e", "sw")},
    "usa": {3: ("nw", "sw", "s"), 4: ("nw", "sw", "s", "mid"), 5: ("nw", "sw", "s", "mid", "se")},
}


def start(
    players: int = 4,
    *,
    map_id: str = "germany",
    mode: str = "physical",
    regions: tuple[str, ...] | None = None,
    order: tuple[int, ...] | None = None,
    seed: int = 0,
    open_money: bool = False,
) -> PowerGridState:
    """A fresh game after the host chose the regions; physical mode by default so tests reveal the plants."""
    config = GAME.make_config(players, mode, {"map": map_id, "open_money": open_money})
    state = GAME.setup(config, random.Random(seed))
    if order is not None:
        state = dataclasses.replace(state, order=order)
    count = state.counts.regions
    state, _ = GAME.apply(state, ChooseRegions(HOST, regions or DEFAULT_REGIONS[map_id][count]))
    return state


def play(state: PowerGridState, *actions: Action) -> PowerGridState:
    """Apply an action script; every action must be accepted."""
    for action in actions:
        state, _ = GAME.apply(state, action)
    return state


def play_log(state: PowerGridState, *actions: Action) -> tuple[PowerGridState, list[LogMessage]]:
    log: list[LogMessage] = []
    for action in actions:
        state, more = GAME.apply(state, action)
        log += more
    return state, log


def city(map_id: str, city_id: str) -> int:
    return MAPS[map_id].index[city_id]


def holdings(spec: Iterable[Any]) -> tuple[Holding, ...]:
    """Plants as numbers, or (number, {"coal": 2, ...}) pairs."""
    out = []
    for item in spec:
        if isinstance(item, int):
            out.append(Holding(item))
        else:
            number, stock = item
            out.append(
                Holding(
                    number,
                    (stock.get("coal", 0), stock.get("oil", 0), stock.get("garbage", 0), stock.get("uranium", 0)),
                )
            )
    return tuple(sorted(out, key=lambda h: h.plant))


def position(
    state: PowerGridState,
    *,
    players: dict[int, dict[str, Any]] | None = None,
    **fields: Any,
) -> PowerGridState:
    """A known position: per seat `money`, `plants` (see holdings) and `cities` (city ids); other fields as given."""
    people = list(state.players)
    for seat, spec in (players or {}).items():
        p = people[seat]
        people[seat] = Player(
            spec.get("money", p.money),
            holdings(spec["plants"]) if "plants" in spec else p.plants,
            tuple(city(state.map, c) for c in spec["cities"]) if "cities" in spec else p.cities,
        )
    return dataclasses.replace(state, players=tuple(people), **fields)


def money(state: PowerGridState) -> list[int]:
    return [p.money for p in state.players]


def plants_of(state: PowerGridState, seat: int) -> list[int]:
    return [h.plant for h in state.players[seat].plants]


def stock_of(state: PowerGridState, seat: int, plant: int) -> tuple[int, int, int, int]:
    holding = state.players[seat].holding(plant)
    assert holding is not None
    return holding.stock


def texts(state: PowerGridState) -> list[str]:
    return [i.render() for i in state.instructions]
