"""What the people at the table must do on the real board after each change, as short translatable sentences."""

from __future__ import annotations

from companion.games.power_grid.data import MAPS, RESOURCES
from companion.games.power_grid.state import Instruction, todo


def setup_market(players: int, removed: int) -> tuple[Instruction, ...]:
    out = [
        todo("Lay out plants 3-6 as the current market and 7-10 as the future market"),
        todo("Set plant 13 and the Step 3 card aside and shuffle the other plants"),
    ]
    if removed:
        out.append(todo("Remove {count} plants face down from the deck without looking", count=removed))
    out += [
        todo("Put plant 13 on top of the deck and the Step 3 card at the bottom"),
        todo("Fill the resource market: coal on 1-8, oil on 3-8, garbage on 7-8, uranium on 14 and 16"),
        todo("Each player takes 22 houses; the companion keeps the {money} Elektro each", money=50),
    ]
    return tuple(out)


def choose_regions(count: int) -> Instruction:
    return todo("The host chooses {count} contiguous regions", count=count)


def draw_plant() -> Instruction:
    return todo("Draw the top plant of the deck and tap it")


def put_in_market(plant: int, row: str) -> Instruction:
    if row == "current":
        return todo("Put plant {plant} in the current market", plant=plant)
    return todo("Put plant {plant} in the future market", plant=plant)


def step3_in_market() -> Instruction:
    return todo("Put the Step 3 card at the end of the future market")


def remove_plant(plant: int) -> Instruction:
    return todo("Remove plant {plant} from the game", plant=plant)


def plant_under_deck(plant: int) -> Instruction:
    return todo("Put plant {plant} under the deck", plant=plant)


def step3_begins(plant: int | None) -> tuple[Instruction, ...]:
    out = [todo("Remove the Step 3 card from the game")]
    if plant is not None:
        out.append(remove_plant(plant))
    out += [
        todo("Shuffle the deck"),
        todo("Step 3: all plants of the market are now the current market"),
    ]
    return tuple(out)


def step3_next_round() -> Instruction:
    return todo("Step 3: a third house per city is allowed from the next round")


def step3_next_phase() -> Instruction:
    return todo("Step 3 begins with phase 5: this round's resupply uses the Step 3 row")


def step3_houses() -> Instruction:
    return todo("Step 3: a third house per city is now allowed")


def step2_begins() -> Instruction:
    return todo("Step 2: a second house per city is now allowed")


def give_plant(plant: int, seat: int) -> Instruction:
    return todo("Give plant {plant} to {player}", plant=plant, player=seat)


def discard_plant(plant: int) -> Instruction:
    return todo("Remove plant {plant} from the game", plant=plant)


def take_resources(count: int, resource: int, plant: int) -> Instruction:
    return todo(
        "Take {count} {resource} from the market and put them on plant {plant}",
        count=count,
        resource=RESOURCES[resource],
        plant=plant,
    )


def _between(count: int, resource: int, from_plant: int, to_plant: int) -> dict[str, int | str]:
    """The params of a move of tokens from one plant to another (the resource by name)."""
    return {"count": count, "resource": RESOURCES[resource], "from_plant": from_plant, "to_plant": to_plant}


def move_resources(count: int, resource: int, from_plant: int, to_plant: int) -> Instruction:
    return todo(
        "Move {count} {resource} from plant {from_plant} to plant {to_plant}",
        **_between(count, resource, from_plant, to_plant),
    )


def return_resources(count: int, resource: int, plant: int) -> Instruction:
    return todo(
        "Return {count} {resource} from plant {plant} to the supply",
        count=count,
        resource=RESOURCES[resource],
        plant=plant,
    )


def move_and_burn(count: int, resource: int, from_plant: int, to_plant: int) -> Instruction:
    return todo(
        "Move {count} {resource} from plant {from_plant} to plant {to_plant} and burn them there (back to the supply)",
        **_between(count, resource, from_plant, to_plant),
    )


def resupply(count: int, resource: int, dearest: int, cheapest: int) -> Instruction:
    if dearest == cheapest:
        return todo(
            "Resupply: {count} {resource} on space {space}", count=count, resource=RESOURCES[resource], space=dearest
        )
    return todo(
        "Resupply: {count} {resource} on spaces {dearest}-{cheapest}",
        count=count,
        resource=RESOURCES[resource],
        dearest=dearest,
        cheapest=cheapest,
    )


def build_house(seat: int, map_id: str, city: int, cities: int) -> tuple[Instruction, ...]:
    name = MAPS[map_id].city_names[city]
    return (
        todo("Put a house of {player} in {city}", player=seat, city=name),
        todo("Move {player}'s marker to {cities} on the city track", player=seat, cities=cities),
    )


def turn_order(order: tuple[int, ...]) -> Instruction:
    return todo("Put the turn-order markers in this order: {order}", order=order)


def game_over() -> Instruction:
    return todo("The game is over: see the scores")
