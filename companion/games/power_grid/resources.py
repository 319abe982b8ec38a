"""Phase 3: buying resources into per-plant storage, moving them between plants, and the resource supply."""

from __future__ import annotations

import dataclasses

from companion.core import IllegalAction, LogMessage, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.actions import BuyResources, MoveResources
from companion.games.power_grid.data import PLANTS, RESOURCES, TRACKS
from companion.games.power_grid.state import Holding, Player, PowerGridState

# Random play must end: moves are offered only this many times a turn (apply still accepts more).
MOVES_OFFERED = 3


def resource_index(name: str) -> int:
    try:
        return RESOURCES.index(name)
    except ValueError:
        raise IllegalAction(
            "there is no resource '{resource}' (resources: coal, oil, garbage, uranium)", resource=name
        ) from None


def fits(plants: tuple[Holding, ...], tokens: tuple[int, ...]) -> bool:
    """Whether some arrangement stores `tokens` (coal, oil, garbage, uranium) on these plants: each plant holds
    only what it burns, at most twice its input, and hybrids hold coal and oil in any mix."""
    room = [0, 0, 0, 0]
    hybrid = 0
    for h in plants:
        plant = PLANTS[h.plant]
        if plant.hybrid:
            hybrid += plant.storage
        elif plant.burns:
            room[plant.burns[0]] += plant.storage
    coal, oil, garbage, uranium = tokens[0], tokens[1], tokens[2], tokens[3]
    return (
        garbage <= room[2]
        and uranium <= room[3]
        and coal <= room[0] + hybrid
        and oil <= room[1] + hybrid
        and coal + oil <= room[0] + room[1] + hybrid
    )


def supply(state: PowerGridState) -> tuple[int, ...]:
    """Tokens neither on the market nor on any plant."""
    out = []
    for r, track in enumerate(TRACKS):
        on_plants = sum(h.stock[r] for p in state.players for h in p.plants)
        out.append(track.tokens - state.resources[r] - on_plants)
    return tuple(out)


def with_stock(player: Player, plant: int, resource: int, delta: int) -> Player:
    plants = []
    for h in player.plants:
        if h.plant == plant:
            stock = list(h.stock)
            stock[resource] += delta
            h = Holding(plant, (stock[0], stock[1], stock[2], stock[3]))
        plants.append(h)
    return dataclasses.replace(player, plants=tuple(plants))


def set_player(state: PowerGridState, seat: int, player: Player) -> PowerGridState:
    players = list(state.players)
    players[seat] = player
    return dataclasses.replace(state, players=tuple(players))


def owned(player: Player, plant: int) -> Holding:
    holding = player.holding(plant)
    if holding is None:
        raise IllegalAction("you do not own plant {plant}: use one of your own plants", plant=plant)
    return holding


def buy(state: PowerGridState, action: BuyResources) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    player = state.players[seat]
    r = resource_index(action.resource)
    holding = owned(player, action.plant)
    if r not in PLANTS[action.plant].burns:
        raise IllegalAction("plant {plant} does not burn {resource}: choose a plant that burns it",
                            plant=action.plant, resource=action.resource)
    if action.count < 1:
        raise IllegalAction("buy at least one token, or finish buying")
    if action.count > holding.room:
        raise IllegalAction("plant {plant} has room for {room} more: add at most {room}",
                            plant=action.plant, room=holding.room)
    available = state.resources[r]
    if action.count > available:
        raise IllegalAction("the market has only {count} {resource}: buy at most {count}",
                            count=available, resource=action.resource)
    cost = TRACKS[r].cost(available, action.count)
    if cost > player.money:
        raise IllegalAction(
            "{count} {resource} cost {cost} Elektro; you have {money}: buy fewer",
            count=action.count,
            resource=action.resource,
            cost=cost,
            money=player.money,
        )
    player = with_stock(player, action.plant, r, action.count)
    player = dataclasses.replace(player, money=player.money - cost)
    market = list(state.resources)
    market[r] -= action.count
    state = set_player(state, seat, player)
    state = dataclasses.replace(
        state,
        resources=(market[0], market[1], market[2], market[3]),
        instructions=(*state.instructions, say.take_resources(action.count, r, action.plant)),
    )
    return state, [
        msg(
            "{player} bought {count} {resource} for {cost} Elektro onto plant {plant}",
            player=seat,
            count=action.count,
            resource=action.resource,
            cost=cost,
            plant=action.plant,
        )
    ]


def move(state: PowerGridState, action: MoveResources) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    player = state.players[seat]
    r = resource_index(action.resource)
    source = owned(player, action.from_plant)
    target = owned(player, action.to_plant)
    if action.from_plant == action.to_plant:
        raise IllegalAction("resources move from one plant to another: choose two different plants")
    if r not in PLANTS[action.to_plant].burns:
        raise IllegalAction("plant {plant} cannot store {resource}: choose a plant that burns it",
                            plant=action.to_plant, resource=action.resource)
    if action.count < 1:
        raise IllegalAction("move at least one token: choose how many to move")
    if source.stock[r] < action.count:
        raise IllegalAction(
            "plant {plant} holds only {count} {resource}: move at most {count}",
            plant=action.from_plant,
            count=source.stock[r],
            resource=action.resource,
        )
    if target.room < action.count:
        raise IllegalAction("plant {plant} has room for {room} more: add at most {room}",
                            plant=action.to_plant, room=target.room)
    player = with_stock(player, action.from_plant, r, -action.count)
    player = with_stock(player, action.to_plant, r, action.count)
    state = set_player(state, seat, player)
    state = dataclasses.replace(
        state,
        moves=state.moves + 1,
        instructions=(
            *state.instructions,
            say.move_resources(action.count, r, action.from_plant, action.to_plant),
        ),
    )
    return state, [
        msg(
            "{player} moved {count} {resource} from plant {from_plant} to plant {to_plant}",
            player=seat,
            count=action.count,
            resource=action.resource,
            from_plant=action.from_plant,
            to_plant=action.to_plant,
        )
    ]


def buy_options(state: PowerGridState, seat: int) -> list[BuyResources]:
    player = state.players[seat]
    out = []
    for h in player.plants:
        room = h.room
        if room <= 0:
            continue
        for r in PLANTS[h.plant].burns:
            available = state.resources[r]
            track = TRACKS[r]
            for count in range(1, min(room, available) + 1):
                if track.cost(available, count) > player.money:
                    break
                out.append(BuyResources(seat, h.plant, RESOURCES[r], count))
    return out


def move_options(
    player: Player, seat: int, sources: tuple[int, ...] | None = None, targets: tuple[int, ...] | None = None
) -> list[MoveResources]:
    out = []
    for src in player.plants:
        if sources is not None and src.plant not in sources:
            continue
        for r in range(4):
            have = src.stock[r]
            if not have:
                continue
            for dst in player.plants:
                if dst.plant == src.plant or r not in PLANTS[dst.plant].burns:
                    continue
                if targets is not None and dst.plant not in targets:
                    continue
                for count in range(1, min(have, dst.room) + 1):
                    out.append(MoveResources(seat, src.plant, dst.plant, RESOURCES[r], count))
    return out
