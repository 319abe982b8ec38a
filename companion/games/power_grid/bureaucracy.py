"""Phase 5: firing plants for income, resupplying the resource market, and the plant market's update."""

from __future__ import annotations

import dataclasses

from companion.core import IllegalAction, LogMessage, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.actions import Fire
from companion.games.power_grid.data import COAL, OIL, PAYOUT, PLANTS, RESOURCES, STEP3, TRACKS
from companion.games.power_grid.firing import burn_from, firings, needs
from companion.games.power_grid.market import remove_from_game, without
from companion.games.power_grid.resources import set_player, supply
from companion.games.power_grid.state import Instruction, PowerGridState


def income(powered: int) -> int:
    """The payout table; beyond 20 powered cities the income stays at the table's last value."""
    return PAYOUT[min(powered, len(PAYOUT) - 1)]


def fire_options(state: PowerGridState, seat: int) -> list[Fire]:
    player = state.players[seat]
    return [Fire(seat, f.plants, f.hybrid_coal) for f in firings(player.plants, len(player.cities), state.resources)]


def fire(state: PowerGridState, action: Fire) -> tuple[PowerGridState, list[LogMessage]]:
    seat = action.seat
    assert isinstance(seat, int)
    player = state.players[seat]
    fired = tuple(action.plants)
    if len(set(fired)) != len(fired):
        raise IllegalAction("each plant fires at most once: name each plant once")
    for plant in fired:
        if player.holding(plant) is None:
            raise IllegalAction("you do not own plant {plant}: use one of your own plants", plant=plant)
    hybrid_input = sum(PLANTS[p].input for p in fired if PLANTS[p].hybrid)
    if not 0 <= action.hybrid_coal <= hybrid_input:
        raise IllegalAction(
            "your fired hybrids burn {amount} tokens in all: choose from 0 to {amount} of them to be coal",
            amount=hybrid_input,
        )
    burn = needs(player.plants, fired, action.hybrid_coal)
    if burn is None:
        raise _why_not(state, seat, fired, action.hybrid_coal)
    holdings, burns = burn_from(player.plants, fired, burn)
    capacity = sum(PLANTS[p].cities for p in fired)
    powered = min(capacity, len(player.cities))
    earned = income(powered)
    player = dataclasses.replace(player, plants=holdings, money=player.money + earned)
    state = set_player(state, seat, player)
    done = list(state.powered)
    done[seat] = powered
    todo = [
        say.move_and_burn(b.count, b.resource, b.source, b.plant) if b.moved
        else say.return_resources(b.count, b.resource, b.plant)
        for b in burns
    ]
    moved = [
        msg(
            "{player} moved {count} {resource} from plant {from_plant} to plant {to_plant}",
            player=seat,
            count=b.count,
            resource=RESOURCES[b.resource],
            from_plant=b.source,
            to_plant=b.plant,
        )
        for b in burns
        if b.moved
    ]
    state = dataclasses.replace(
        state,
        queue=tuple(s for s in state.queue if s != seat),
        powered=tuple(done),
        instructions=(*state.instructions, *todo),
    )
    return state, [
        *moved,
        msg(
            # {count} (the cities powered) picks the plural: "powered 1 city".
            "{player} fired plants {plants}, powered {count} cities and earned {income} Elektro",
            player=seat,
            plants=fired,
            count=powered,
            income=earned,
        )
    ]


def _why_not(state: PowerGridState, seat: int, fired: tuple[int, ...], hybrid_coal: int) -> IllegalAction:
    """Why these plants cannot fire with this coal and oil mix, naming the resource that is short, and what mix
    (or smaller firing) works instead."""
    player = state.players[seat]
    held = player.stock()
    hybrid_input = sum(PLANTS[p].input for p in fired if PLANTS[p].hybrid)
    want = [0, 0, 0, 0]
    for p in fired:
        plant = PLANTS[p]
        if len(plant.burns) == 1:
            want[plant.burns[0]] += plant.input
    single = list(want)
    want[COAL] += hybrid_coal
    want[OIL] += hybrid_input - hybrid_coal
    works = [c for c in range(hybrid_input + 1) if needs(player.plants, fired, c) is not None]
    if works:
        suggested = min(works, key=lambda c: abs(c - hybrid_coal))
        for r in (COAL, OIL):
            if want[r] > held[r]:
                return IllegalAction(
                    "those plants would burn {amount} {resource} and you hold {held}: let the hybrids burn "
                    "{suggested} coal and {oil} oil instead",
                    amount=want[r],
                    resource=RESOURCES[r],
                    held=held[r],
                    suggested=suggested,
                    oil=hybrid_input - suggested,
                )
        return IllegalAction(
            "burning {coal} coal in the hybrids would leave more resources than your plants can store: let the "
            "hybrids burn {suggested} coal and {oil} oil instead",
            coal=hybrid_coal,
            suggested=suggested,
            oil=hybrid_input - suggested,
        )
    for r in range(4):
        if single[r] > held[r]:
            return IllegalAction(
                "those plants need {amount} {resource} and you hold {held}: fire fewer plants",
                amount=single[r],
                resource=RESOURCES[r],
                held=held[r],
            )
    if single[COAL] + single[OIL] + hybrid_input > held[COAL] + held[OIL]:
        return IllegalAction(
            "those plants burn {amount} coal and oil in all and you hold {held}: fire fewer plants",
            amount=single[COAL] + single[OIL] + hybrid_input,
            held=held[COAL] + held[OIL],
        )
    return IllegalAction("your plants do not hold the resources to fire those plants: fire fewer plants")


def resupply(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """Refill the market from the most expensive empty space down, by players and step, limited by the supply."""
    row = state.counts.resupply
    left = supply(state)
    market = list(state.resources)
    todo: list[Instruction] = []
    added = []
    for r, track in enumerate(TRACKS):
        count = min(row[r][state.step - 1], left[r], len(track.slots) - market[r])
        if count > 0:
            dearest, cheapest = track.prices_of(market[r], count)
            todo.append(say.resupply(count, r, dearest, cheapest))
            market[r] += count
        added.append(max(count, 0))
    state = dataclasses.replace(state, resources=(market[0], market[1], market[2], market[3]))
    log = [
        msg(
            "The market was resupplied: {coal} coal, {oil} oil, {garbage} garbage, {uranium} uranium",
            coal=added[0],
            oil=added[1],
            garbage=added[2],
            uranium=added[3],
        )
    ]
    return state, todo, log


def update_market(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """Steps 1-2: the highest plant goes under the deck; Step 3: the lowest leaves the game. Either is replaced."""
    plants = [p for p in state.market if p != STEP3]
    if not plants:
        return state, [], []
    if state.step3_out:
        lowest = plants[0]
        state, todo = remove_from_game(state, lowest, replace=True)
        return state, todo, [msg("Plant {plant} left the game", plant=lowest)]
    highest = plants[-1]
    state = dataclasses.replace(
        state, market=without(state.market, highest), deck=(*state.deck, highest), draws=state.draws + 1
    )
    return state, [say.plant_under_deck(highest)], [msg("Plant {plant} went under the deck", plant=highest)]
