"""The round's automatic steps between decisions: draws, the end of each phase, and the next round."""

from __future__ import annotations

import dataclasses

from companion.core import LogMessage, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.bureaucracy import resupply, update_market
from companion.games.power_grid.market import remove_from_game, resolve_draw
from companion.games.power_grid.order import turn_order
from companion.games.power_grid.state import Instruction, PowerGridState
from companion.games.power_grid.steps import (
    begin_step2,
    end_of_auction_step3,
    step2_due,
    step3_at_phase_5,
    step3_at_round_start,
)


def advance(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    """Carry out everything that needs no decision, until a seat (or the table, for a draw) must act."""
    while True:
        if state.draws:
            if not state.deck:
                # An empty deck leaves the gap: the market shrinks.
                state = dataclasses.replace(state, draws=0)
                continue
            if not state.digital:
                return _add(state, [say.draw_plant()])
            state, todo, more = resolve_draw(state, state.deck[0])
            state = _add(state, todo)
            log += more
            continue
        phase = state.phase
        if phase == "auction":
            if state.discard is not None or state.auction is not None or state.chooser() is not None:
                return state
            state = _close_auctions(state, log)
        elif phase == "auction_close":
            state = _after_auctions(state, log)
        elif phase == "resources":
            if state.queue:
                return state
            state = dataclasses.replace(state, phase="building", queue=tuple(reversed(state.order)), moves=0)
        elif phase == "building":
            if state.queue:
                return state
            state = _after_building(state, log)
        elif phase == "bureaucracy":
            if state.queue:
                return state
            state = _after_bureaucracy(state, log)
        elif phase == "round_end":
            state = _new_round(state, log)
        else:
            return state


def _add(state: PowerGridState, todo: list[Instruction]) -> PowerGridState:
    if not todo:
        return state
    return dataclasses.replace(state, instructions=(*state.instructions, *todo))


def _close_auctions(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    if not state.bought and state.round > 1 and state.current_market():
        lowest = state.current_market()[0]
        state, todo = remove_from_game(state, lowest, replace=True)
        state = _add(state, todo)
        log.append(msg("Nobody bought a plant: plant {plant} left the game", plant=lowest))
    return dataclasses.replace(state, phase="auction_close")


def _after_auctions(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    state, todo, more = end_of_auction_step3(state)
    state = _add(state, todo)
    log += more
    if state.round == 1:
        order = turn_order(state)
        state = _add(dataclasses.replace(state, order=order), [say.turn_order(order)])
        log.append(msg("The turn order became {order}", order=order))
    return dataclasses.replace(state, phase="resources", queue=tuple(reversed(state.order)), moves=0)


def _after_building(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    if state.most_cities() >= state.counts.end_cities:
        log.append(msg("The game ended: a player has {cities} cities", cities=state.most_cities()))
        return _add(dataclasses.replace(state, phase="over", queue=()), [say.game_over()])
    if step2_due(state):
        state, todo, more = begin_step2(state)
        state = _add(state, todo)
        log += more
    state, todo, more = step3_at_phase_5(state)
    state = _add(state, todo)
    log += more
    return dataclasses.replace(state, phase="bureaucracy", queue=state.order, powered=(-1,) * state.n, moves=0)


def _after_bureaucracy(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    state, todo, more = resupply(state)
    state = _add(state, todo)
    log += more
    state, todo, more = update_market(state)
    state = _add(state, todo)
    log += more
    return dataclasses.replace(state, phase="round_end")


def _new_round(state: PowerGridState, log: list[LogMessage]) -> PowerGridState:
    state, todo, more = step3_at_round_start(state)
    state = _add(state, todo)
    log += more
    order = turn_order(state)
    state = dataclasses.replace(
        state,
        round=state.round + 1,
        order=order,
        phase="auction",
        done=(),
        bought=(),
        bought_plants=(),
        queue=(),
        moves=0,
    )
    log.append(msg("Round {round} began; the turn order is {order}", round=state.round, order=order))
    return _add(state, [say.turn_order(order)])
