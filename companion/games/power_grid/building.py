"""Phase 4: building houses; each city costs its slot price plus the cheapest path from the builder's network."""

from __future__ import annotations

import dataclasses

from companion.core import IllegalAction, LogMessage, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.actions import BuildCity
from companion.games.power_grid.data import HOUSES, INF, MAPS, SLOT_PRICES, distances
from companion.games.power_grid.market import remove_small_plants
from companion.games.power_grid.resources import set_player
from companion.games.power_grid.state import PowerGridState


def dist_table(state: PowerGridState) -> tuple[tuple[int, ...], ...]:
    return distances(state.map, state.regions)


def connection_costs(state: PowerGridState, seat: int) -> list[int]:
    """Per city, the cheapest path from the seat's network (0 everywhere for an empty network)."""
    dist = dist_table(state)
    network = state.players[seat].cities
    if not network:
        return [0] * len(state.houses)
    best = list(dist[network[0]])
    for city in network[1:]:
        row = dist[city]
        for j, d in enumerate(row):
            if d < best[j]:
                best[j] = d
    return best


def open_slot(state: PowerGridState, seat: int, city: int) -> int | None:
    """The slot price the seat would pay in this city now, or None if it may not build there."""
    here = state.houses[city]
    if seat in here or len(here) >= state.step:
        return None
    return SLOT_PRICES[len(here)]


def prices(state: PowerGridState, seat: int) -> dict[int, int]:
    """Every city the seat could build in now (money aside), with its price."""
    if len(state.players[seat].cities) >= HOUSES:
        return {}
    game_map = MAPS[state.map]
    costs = connection_costs(state, seat)
    out = {}
    for city in game_map.cities_in(state.regions):
        slot = open_slot(state, seat, city)
        if slot is not None and costs[city] < INF:
            out[city] = slot + costs[city]
    return out


def city_index(state: PowerGridState, city: str) -> int:
    game_map = MAPS[state.map]
    index = game_map.index.get(city)
    if index is None:
        raise IllegalAction(f"{game_map.title} has no city {city!r}")
    return index


def build(state: PowerGridState, action: BuildCity) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    game_map = MAPS[state.map]
    city = city_index(state, action.city)
    name = game_map.city_names[city]
    player = state.players[seat]
    if game_map.city_region[city] not in state.regions:
        raise IllegalAction(f"{name} is outside the regions in play")
    if len(player.cities) >= HOUSES:
        raise IllegalAction(f"you have built all your {HOUSES} houses")
    here = state.houses[city]
    if seat in here:
        raise IllegalAction(f"you already have a house in {name}")
    if len(here) >= state.step:
        raise IllegalAction(f"{name} is full: Step {state.step} allows {state.step} house(s) per city")
    price = SLOT_PRICES[len(here)] + connection_costs(state, seat)[city]
    if price > player.money:
        raise IllegalAction(f"{name} costs {price} Elektro; you have {player.money}")
    houses = list(state.houses)
    houses[city] = (*here, seat)
    player = dataclasses.replace(player, money=player.money - price, cities=(*player.cities, city))
    state = set_player(state, seat, player)
    state = dataclasses.replace(
        state,
        houses=tuple(houses),
        instructions=(*state.instructions, *say.build_house(seat, state.map, city, len(player.cities))),
    )
    log = [msg("{player} built in {city} for {price} Elektro", player=seat, city=name, price=price)]
    state, todo, more = remove_small_plants(state)
    state = dataclasses.replace(state, instructions=(*state.instructions, *todo))
    return state, log + more


def build_options(state: PowerGridState, seat: int) -> list[BuildCity]:
    money = state.players[seat].money
    ids = MAPS[state.map].city_ids
    return [BuildCity(seat, ids[c]) for c, price in prices(state, seat).items() if price <= money]
