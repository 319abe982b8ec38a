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
        return [0] * len(dist)
    best = list(dist[network[0]])
    for city in network[1:]:
        row = dist[city]
        for j, d in enumerate(row):
            if d < best[j]:
                best[j] = d
    return best


def open_slots(state: PowerGridState, seat: int) -> dict[int, int]:
    """Every city in play where the seat may build now, with the slot price it would pay there."""
    taken = [0] * len(MAPS[state.map].city_ids)
    for p in state.players:
        for city in p.cities:
            taken[city] += 1
    mine = state.players[seat].cities
    return {
        city: SLOT_PRICES[taken[city]]
        for city in MAPS[state.map].cities_in(state.regions)
        if taken[city] < state.step and city not in mine
    }


def prices(state: PowerGridState, seat: int) -> dict[int, int]:
    """Every city the seat could build in now (money aside), with its price."""
    if len(state.players[seat].cities) >= HOUSES:
        return {}
    costs = connection_costs(state, seat)
    return {city: slot + costs[city] for city, slot in open_slots(state, seat).items() if costs[city] < INF}


def city_index(state: PowerGridState, city: str) -> int:
    game_map = MAPS[state.map]
    index = game_map.index.get(city)
    if index is None:
        raise IllegalAction("{map} has no city '{city}'", map=game_map.title, city=city)
    return index


def build(state: PowerGridState, action: BuildCity) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    game_map = MAPS[state.map]
    city = city_index(state, action.city)
    name = game_map.city_names[city]
    player = state.players[seat]
    if game_map.city_region[city] not in state.regions:
        raise IllegalAction("{city} is outside the regions in play; build in a city of the chosen regions", city=name)
    if len(player.cities) >= HOUSES:
        raise IllegalAction(
            "you have built all your {houses} houses: no more can be built; finish building",
            houses=HOUSES
        )
    here = state.occupants(city)
    if seat in here:
        raise IllegalAction("you already have a house in {city}; build in another city", city=name)
    if len(here) >= state.step:
        raise IllegalAction("{city} is full: Step {step} allows {step} house(s) per city; build in another city",
                            city=name, step=state.step)
    price = SLOT_PRICES[len(here)] + connection_costs(state, seat)[city]
    if price > player.money:
        raise IllegalAction(
            "{city} costs {price} Elektro; you have {money}: build a cheaper city, or finish building",
            city=name, price=price, money=player.money
        )
    player = dataclasses.replace(player, money=player.money - price, cities=(*player.cities, city))
    state = set_player(state, seat, player)
    state = dataclasses.replace(
        state,
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
