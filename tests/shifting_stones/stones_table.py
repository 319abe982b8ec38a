"""Known Shifting Stones tables for the scenario tests: a grid laid out by hand, hands revealed card by card."""

from __future__ import annotations

import dataclasses
import random

from companion.core import TABLE, Action, LogMessage
from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.actions import DrawPattern, SetGrid
from companion.games.shifting_stones.state import StonesState

# The grid most scenarios start from, row by row from the top:
#   sun    fish   horse
#   bird   seed   boat
#   tree   horse  seed
# On it show, among others: SS11 "seed boat" (cells 4-5), SS14 "tree horse" (6-7), SS21 "boat / seed" (5, 8),
# SS44 "tree * seed" (6, 8, 2 points), SS48 "sun / * / *" (column 0, 2 points). SS05 "bird horse",
# SS10 "horse horse" and SS50 "fish fish" do not show.
GRID = ("sun", "fish", "horse", "bird", "seed", "boat", "tree", "horse", "seed")

# Seat 0 holds SS11 "seed boat" and SS44 "tree * seed" (both show on GRID), SS05 "bird horse" and SS10 "horse
# horse" (neither shows). Seat 1 holds SS14 "tree horse" (shows), SS50, SS01 and SS02 (do not).
HANDS = [["SS11", "SS44", "SS05", "SS10"], ["SS14", "SS50", "SS01", "SS02"]]


def rows(*lines: str) -> tuple[str, ...]:
    """A grid written as three rows of three faces: rows("sun fish horse", "bird seed boat", ...)."""
    faces = tuple(f for line in lines for f in line.split())
    assert len(faces) == 9, faces
    return faces


def play(state: StonesState, *actions: Action) -> StonesState:
    """Apply an action script; every action must be accepted."""
    for action in actions:
        state, _ = GAME.apply(state, action)
    return state


def play_logged(state: StonesState, *actions: Action) -> tuple[StonesState, list[LogMessage]]:
    log: list[LogMessage] = []
    for action in actions:
        state, more = GAME.apply(state, action)
        log += more
    return state, log


def table(hands: list[list[str]], grid: tuple[str, ...] = GRID, **options: object) -> StonesState:
    """A physical game: the grid entered by the table and each seat's four cards tapped in, seat 0 first."""
    config = GAME.make_config(len(hands), "physical", options or None)
    state = GAME.setup(config, random.Random(0))
    state = play(state, SetGrid(TABLE, grid))
    for hand in hands:
        assert len(hand) == 4
        state = play(state, *(DrawPattern(TABLE, c) for c in hand))
    assert state.phase == "play"
    return state


def digital(players: int, seed: int = 1) -> StonesState:
    return GAME.setup(GAME.make_config(players), random.Random(seed))


def with_scored(state: StonesState, seat: int, cards: list[str]) -> StonesState:
    """A table where `seat` has already scored `cards` (taken from wherever the companion has not seen them)."""
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], scored=tuple(cards))
    return dataclasses.replace(state, players=tuple(players))


def all_cards(state: StonesState) -> list[str]:
    """Every card the companion has placed (hands, scored, discard, deck), with repeats if any were doubled."""
    out = list(state.deck) + list(state.discard) + sorted(state.returned)
    for p in state.players:
        out += list(p.hand) + list(p.scored)
    return out
