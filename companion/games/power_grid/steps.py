"""The game's steps: Step 2 after building, and when the Step 3 card's changes take effect."""

from __future__ import annotations

import dataclasses

from companion.core import LogMessage, msg
from companion.games.power_grid import instructions as say
from companion.games.power_grid.data import STEP3
from companion.games.power_grid.market import remove_from_game, step3_out
from companion.games.power_grid.state import Instruction, PowerGridState


def step2_due(state: PowerGridState) -> bool:
    """After phase 4: someone reached the Step 2 threshold, and the Step 3 card has not come (it skips Step 2)."""
    if state.step != 1 or state.step3_out or state.step3_next or STEP3 in state.market:
        return False
    return state.most_cities() >= state.counts.step2_cities


def begin_step2(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """Step 2: a second house per city, and the lowest plant leaves the game and is replaced."""
    state = dataclasses.replace(state, step=2)
    todo = [say.step2_begins()]
    plants = [p for p in state.market if p != STEP3]
    log = [msg("Step 2 began")]
    if plants:
        state, more = remove_from_game(state, plants[0], replace=True)
        todo += more
        log.append(msg("Plant {plant} left the game", plant=plants[0]))
    return state, todo, log


def end_of_auction_step3(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """The Step 3 card drawn during the auctions leaves with the lowest plant when phase 2 ends; Step 3 begins."""
    if STEP3 not in state.market:
        return state, [], []
    state, todo = step3_out(state)
    state = dataclasses.replace(state, step=3)
    return state, [*todo, say.step3_houses()], [msg("Step 3 began")]


def step3_at_phase_5(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """The Step 3 card came in phase 4: Step 3 begins with phase 5 (its resupply row, its market update),
    whether the game was in Step 1 or Step 2."""
    if not state.step3_next:
        return state, [], []
    state = dataclasses.replace(state, step=3, step3_next=False)
    return state, [say.step3_houses()], [msg("Step 3 began")]


def step3_at_round_start(state: PowerGridState) -> tuple[PowerGridState, list[Instruction], list[LogMessage]]:
    """The Step 3 card came in phase 5 after the resupply: Step 3's rules start with the new round."""
    if not state.step3_next:
        return state, [], []
    state = dataclasses.replace(state, step=3, step3_next=False)
    return state, [say.step3_houses()], [msg("Step 3 began")]
