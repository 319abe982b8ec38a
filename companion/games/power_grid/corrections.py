"""The host's corrections of houses, stored resources, plant ownership and the market, so the books match the board.

Every card stays in exactly one place and every token is on the market, on a plant or in the supply: tokens a
correction takes off a plant go back to the supply (as on a discarded plant), tokens it adds come from the supply.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from companion.core import HOST, IllegalAction, LogMessage, msg
from companion.games.power_grid.actions import CorrectHouse, CorrectStock, MovePlant, SwapPlants
from companion.games.power_grid.building import city_index
from companion.games.power_grid.data import HOUSES, MAPS, PLANTS, RESOURCES, STEP3
from companion.games.power_grid.flow import advance
from companion.games.power_grid.market import insert, remove_small_plants, without
from companion.games.power_grid.resources import set_player, supply
from companion.games.power_grid.state import Holding, PowerGridState
from companion.i18n import N_

Place = Literal["market", "player", "deck", "unseen", "removed", "setup_removed"]


def _host(action: Any) -> None:
    if action.seat != HOST:
        raise IllegalAction("only the host makes corrections")


def _seat(state: PowerGridState, seat: object) -> int:
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        # A correction names a seat from 0; the host reads players numbered from 1.
        raise IllegalAction("there is no player {seat}: the players are 1 to {count}",
                            seat=seat + 1 if isinstance(seat, int) else str(seat), count=state.n)
    return seat


def _begun(state: PowerGridState) -> None:
    if state.phase == "regions":
        raise IllegalAction("the host chooses the regions first; corrections come after")


def _settle(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    """After a change to the market or to the most cities: small plants leave, gaps are refilled as usual."""
    state, todo, more = remove_small_plants(state)
    log += more
    state = dataclasses.replace(state, instructions=(*state.instructions, *todo))
    return advance(state, log)


# -- houses ------------------------------------------------------------------------------------------------------
def correct_house(state: PowerGridState, action: CorrectHouse) -> tuple[PowerGridState, list[LogMessage]]:
    _host(action)
    _begun(state)
    seat = _seat(state, action.player)
    game_map = MAPS[state.map]
    city = city_index(state, action.city)
    name = game_map.city_names[city]
    player = state.players[seat]
    log: list[LogMessage] = []
    if action.change == "add":
        if game_map.city_region[city] not in state.regions:
            raise IllegalAction("{city} is outside the regions in play", city=name)
        if city in player.cities:
            raise IllegalAction("{player} has a house in {city} already", player=seat, city=name)
        if len(player.cities) >= HOUSES:
            raise IllegalAction("{player} has all {houses} houses on the map already", player=seat, houses=HOUSES)
        if len(state.occupants(city)) >= state.step:
            raise IllegalAction("{city} has no free space: Step {step} allows {count} houses in a city", city=name,
                                step=state.step, count=state.step)
        player = dataclasses.replace(player, cities=(*player.cities, city))
        log.append(msg("The host added a house of {player} in {city}", player=seat, city=name))
    elif action.change == "remove":
        if city not in player.cities:
            raise IllegalAction("{player} has no house in {city}", player=seat, city=name)
        player = dataclasses.replace(player, cities=tuple(c for c in player.cities if c != city))
        log.append(msg("The host removed the house of {player} in {city}", player=seat, city=name))
    else:
        raise IllegalAction("a house correction adds a house or removes one, not {change}", change=str(action.change))
    state = set_player(state, seat, player)
    return _settle(state, log), log


# -- resources on a plant -----------------------------------------------------------------------------------------
def owner_of(state: PowerGridState, plant: int) -> int | None:
    for seat, p in enumerate(state.players):
        if p.holding(plant) is not None:
            return seat
    return None


def correct_stock(state: PowerGridState, action: CorrectStock) -> tuple[PowerGridState, list[LogMessage]]:
    _host(action)
    seat = owner_of(state, action.plant)
    if seat is None:
        raise IllegalAction("plant {plant} belongs to nobody; give it to a player first", plant=action.plant)
    wanted = (action.coal, action.oil, action.garbage, action.uranium)
    if any(n < 0 for n in wanted):
        raise IllegalAction("a plant cannot hold fewer than 0 tokens")
    card = PLANTS[action.plant]
    for r, n in enumerate(wanted):
        if n and r not in card.burns:
            raise IllegalAction("plant {plant} cannot store {resource}", plant=action.plant, resource=RESOURCES[r])
    if sum(wanted) > card.storage:
        raise IllegalAction("plant {plant} holds at most {count} tokens", plant=action.plant, count=card.storage)
    player = state.players[seat]
    holding = player.holding(action.plant)
    assert holding is not None
    if holding.stock == wanted:
        raise IllegalAction("plant {plant} holds exactly that already", plant=action.plant)
    left = supply(state)
    for r, n in enumerate(wanted):
        more = n - holding.stock[r]
        if more > left[r]:
            raise IllegalAction("the supply has only {count} {resource} left", count=left[r], resource=RESOURCES[r])
    plants = tuple(dataclasses.replace(h, stock=wanted) if h.plant == action.plant else h for h in player.plants)
    state = set_player(state, seat, dataclasses.replace(player, plants=plants))
    return state, [msg("The host set the resources on plant {plant} of {player}: {coal} coal, {oil} oil, "
                       "{garbage} garbage, {uranium} uranium", plant=action.plant, player=seat, coal=wanted[0],
                       oil=wanted[1], garbage=wanted[2], uranium=wanted[3])]


# -- plants -------------------------------------------------------------------------------------------------------
def place_of(state: PowerGridState, plant: int) -> tuple[Place, int]:
    """Where a plant card is (and the seat, or its place in the deck); refuses a number that is no plant."""
    if plant == STEP3:
        raise IllegalAction("the Step 3 card is not moved by a correction; undo to before it was drawn instead")
    if plant not in PLANTS:
        raise IllegalAction("plant {plant} is not a plant of this game: choose a number printed on one of its plant "
                            "cards", plant=plant)
    if plant in state.market:
        return "market", 0
    seat = owner_of(state, plant)
    if seat is not None:
        return "player", seat
    if plant in state.deck:
        return "deck", state.deck.index(plant)
    if plant in state.pool:
        return "unseen", 0
    if plant in state.removed:
        return "removed", state.removed.index(plant)
    return "setup_removed", state.setup_removed.index(plant)


def _busy(state: PowerGridState, plant: int) -> None:
    if state.auction is not None and state.auction.plant == plant:
        raise IllegalAction("plant {plant} is on auction now; finish the auction first", plant=plant)
    if state.discard is not None and plant in (state.discard.new_plant, state.discard.plant):
        raise IllegalAction("plant {plant} is part of a discard now; finish the discard first", plant=plant)


def _put(state: PowerGridState, place: tuple[Place, int], old: int, new: int) -> PowerGridState:
    """`new` takes the place `old` had; `old` is gone from it (and any tokens on it go back to the supply)."""
    kind, at = place
    if kind == "market":
        return dataclasses.replace(state, market=insert(without(state.market, old), new))
    if kind == "player":
        player = state.players[at]
        plants = tuple(sorted((Holding(new) if h.plant == old else h for h in player.plants), key=lambda h: h.plant))
        return set_player(state, at, dataclasses.replace(player, plants=plants))
    if kind == "deck":
        return dataclasses.replace(state, deck=(*state.deck[:at], new, *state.deck[at + 1 :]))
    if kind == "unseen":
        return dataclasses.replace(state, pool=(state.pool - {old}) | {new})
    if kind == "removed":
        return dataclasses.replace(state, removed=(*state.removed[:at], new, *state.removed[at + 1 :]))
    return dataclasses.replace(state, setup_removed=tuple(sorted({*state.setup_removed} - {old} | {new})))


def swap_plants(state: PowerGridState, action: SwapPlants) -> tuple[PowerGridState, list[LogMessage]]:
    _host(action)
    _begun(state)
    a, b = place_of(state, action.plant), place_of(state, action.other)
    _busy(state, action.plant)
    _busy(state, action.other)
    if action.plant == action.other or (a[0] == b[0] and a[0] in ("market", "unseen", "setup_removed")) or (
            a[0] == b[0] == "player" and a[1] == b[1]):
        raise IllegalAction("plants {plant} and {other} are in the same place: swapping them changes nothing",
                            plant=action.plant, other=action.other)
    state = _put(state, a, action.plant, action.other)
    state = _put(state, b, action.other, action.plant)
    log = [msg("The host swapped plants {plant} and {other}", plant=action.plant, other=action.other)]
    return _settle(state, log), log


def move_plant(state: PowerGridState, action: MovePlant) -> tuple[PowerGridState, list[LogMessage]]:
    _host(action)
    _begun(state)
    place = place_of(state, action.plant)
    _busy(state, action.plant)
    kind, at = place
    log: list[LogMessage] = []
    if action.owner is None:
        if kind != "player":
            raise IllegalAction("only a plant a player owns goes back to the market; plant {plant} belongs to nobody",
                                plant=action.plant)
        room = 6 if state.step3_out else 8
        if len([p for p in state.market if p != STEP3]) >= room:
            raise IllegalAction("the market is full ({count} plants): swap plants instead", count=room)
        player = state.players[at]
        state = set_player(state, at, dataclasses.replace(
            player, plants=tuple(h for h in player.plants if h.plant != action.plant)))
        state = dataclasses.replace(state, market=insert(state.market, action.plant))
        log.append(msg("The host put plant {plant} of {player} back into the market", plant=action.plant, player=at))
        return _settle(state, log), log
    seat = _seat(state, action.owner)
    if kind == "player" and at == seat:
        raise IllegalAction("plant {plant} belongs to {player} already", plant=action.plant, player=seat)
    owned = state.players[seat].plants
    if len(owned) >= state.counts.max_plants:
        raise IllegalAction("{player} has {count} plants, the most allowed: swap one of them instead", player=seat,
                            count=len(owned))
    if kind == "market":
        # The table refills the gap from the deck, as after an auction.
        state = dataclasses.replace(state, market=without(state.market, action.plant), draws=state.draws + 1)
    elif kind == "player":
        giver = state.players[at]
        state = set_player(state, at, dataclasses.replace(
            giver, plants=tuple(h for h in giver.plants if h.plant != action.plant)))
    elif kind == "deck":
        state = dataclasses.replace(state, deck=without(state.deck, action.plant))
    elif kind == "unseen":
        # A real deck: the card came out of it, so one of its unknown cards is known now and gone.
        deck = list(state.deck)
        if 0 in deck:
            del deck[len(deck) - 1 - deck[::-1].index(0)]
        state = dataclasses.replace(state, deck=tuple(deck), pool=state.pool - {action.plant})
    elif kind == "removed":
        state = dataclasses.replace(state, removed=without(state.removed, action.plant))
    else:
        state = dataclasses.replace(state, setup_removed=without(state.setup_removed, action.plant))
    receiver = state.players[seat]
    plants = tuple(sorted((*receiver.plants, Holding(action.plant)), key=lambda h: h.plant))
    state = set_player(state, seat, dataclasses.replace(receiver, plants=plants))
    log.append(msg("The host gave plant {plant} to {player}", plant=action.plant, player=seat))
    return _settle(state, log), log


# -- the host page's forms ----------------------------------------------------------------------------------------
def _plant_label(state: PowerGridState, plant: int) -> dict[str, Any]:
    """How a plant reads in a picker: its number and where it is now (an unseen card is only "not drawn yet")."""
    kind, at = place_of(state, plant)
    if kind == "market":
        return {"template": N_("plant {plant} (market)"), "params": {"plant": plant}}
    if kind == "player":
        return {"template": N_("plant {plant} ({player})"), "params": {"plant": plant, "player": at}}
    if kind in ("deck", "unseen", "setup_removed"):
        # The plants removed face down at setup are as secret as the deck's order: both read "not drawn yet".
        return {"template": N_("plant {plant} (not drawn yet)"), "params": {"plant": plant}}
    return {"template": N_("plant {plant} (out of the game)"), "params": {"plant": plant}}


def correction_forms(state: PowerGridState) -> dict[str, dict[str, Any]]:
    """The host page's forms for these corrections, every field a list built from the board now."""
    if state.phase in ("regions", "over"):
        return {}  # no board yet, or only money is corrected once the game is over
    players = [{"value": s, "seat": s, "label": ""} for s in range(state.n)]
    game_map = MAPS[state.map]
    cities = sorted(game_map.cities_in(state.regions), key=lambda c: game_map.city_names[c])
    city_choices = [{"value": game_map.city_ids[c], "label": {"template": "{city}",
                                                               "params": {"city": game_map.city_names[c]}}}
                    for c in cities]
    owned = [h for p in state.players for h in p.plants]
    held = sorted(h.plant for h in owned)
    # Unseen plants of a real deck are offered too: any of them may be the card the table really drew.
    every = sorted(p for p in PLANTS if p in state.market or p in held or p in state.deck or p in state.pool
                   or p in state.removed or p in state.setup_removed)
    plant_choices = [{"value": p, "label": _plant_label(state, p)} for p in every]
    most = max((PLANTS[p].storage for p in held), default=0)
    words = (N_("Coal"), N_("Oil"), N_("Garbage"), N_("Uranium"))
    amounts = [{"name": r, "label": words[i], "min": 0, "max": most, "signed": False}
               for i, r in enumerate(RESOURCES)]
    forms: dict[str, dict[str, Any]] = {
        "correct_house": {
            "title": N_("Correct a house"),
            "fields": [
                {"name": "player", "label": N_("Player"), "choices": players},
                {"name": "change", "label": N_("Change"), "choices": [
                    {"value": "add", "label": N_("Add a house")},
                    {"value": "remove", "label": N_("Remove the house")},
                ]},
                {"name": "city", "label": N_("City"), "choices": city_choices},
            ],
        },
        "move_plant": {
            "title": N_("Correct who owns a plant"),
            "fields": [
                {"name": "plant", "label": N_("Plant"), "choices": plant_choices},
                {"name": "owner", "label": N_("Goes to"), "choices": [
                    *players, {"value": None, "label": N_("Back to the market")}]},
            ],
        },
        "swap_plants": {
            "title": N_("Swap two plants"),
            "fields": [
                {"name": "plant", "label": N_("Plant"), "choices": plant_choices},
                {"name": "other", "label": N_("With"), "choices": plant_choices},
            ],
        },
    }
    storable = [p for p in held if PLANTS[p].storage]
    if storable:
        forms["correct_stock"] = {
            "title": N_("Correct the resources on a plant"),
            "fields": [
                {"name": "plant", "label": N_("Plant"), "choices": [
                    {"value": p, "label": _plant_label(state, p)} for p in storable]},
                *amounts,
            ],
        }
    return forms
