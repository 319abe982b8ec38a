"""The state of a game of Shifting Stones, and questions about it (where a card is, what the deck may hold)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Literal, TypeVar

from companion.core.errors import CompanionError
from companion.games.shifting_stones.patterns import END_TRIGGER, PATTERNS, encode

T = TypeVar("T")
E = TypeVar("E", bound=CompanionError)

Phase = Literal["setup", "play", "draw", "over"]


def evolve(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for the engine's frozen states, without re-running `__init__`.

    The states have no `__post_init__` checks, and replace() was most of the time random selfplay took.
    """
    unknown = changes.keys() - obj.__dict__.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {', '.join(sorted(unknown))}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


Result = Literal["", "won", "lost"]
DeckMode = Literal["digital", "physical"]


@dataclasses.dataclass(frozen=True)
class PlayerState:
    """One player: the hand (private), the scored cards (face up) and the public flags."""

    hand: tuple[str, ...]
    scored: tuple[str, ...] = ()
    skipped_last_turn: bool = False
    correction: int = 0  # points added by the host to match the table


@dataclasses.dataclass(frozen=True)
class StonesState:
    """Everything the companion knows about one game.

    Digital deck: `deck` is the deck in order, top first. Physical deck: the companion does not know the deck's
    order or, until a card is seen, its contents: `deck` is empty, `returned` holds the seen cards shuffled back
    into it, and the rest of the deck is whatever cards of the game (`composition`: how many cards of each
    point value) have not been seen yet.
    """

    players: tuple[PlayerState, ...]
    grid: tuple[str, ...]  # nine faces row by row from the top left; empty until the table enters it
    deck: tuple[str, ...]
    returned: frozenset[str]
    discard: tuple[str, ...]  # face up; the last one is on top
    composition: tuple[tuple[int, int], ...]  # (points, cards) in the game: all 72, or the solo deck of 16
    deck_mode: DeckMode
    phase: Phase
    turn: int
    turns_taken: int
    acted: int  # shifts, flips and scores made this turn
    scored_this_turn: int
    pending: tuple[int, ...]  # physical deck: the seats still owed a drawn card, in order
    final_round: bool
    strikes: int
    result: Result  # solo: won or lost once over
    seed: int  # for reshuffles of a digital deck
    reshuffles: int
    last_cells: tuple[int, ...] = ()  # the stones the last shift or flip touched, for displays
    show_hints: bool = True  # the `hints` option

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def current(self) -> PlayerState:
        return self.players[self.turn]

    def codes(self) -> tuple[int, ...]:
        return encode(self.grid)


def located(state: StonesState) -> set[str]:
    """Cards whose place the companion knows: hands, scored, discard pile, and the deck's known cards."""
    cards = set(state.discard) | set(state.returned) | set(state.deck)
    for p in state.players:
        cards.update(p.hand)
        cards.update(p.scored)
    return cards


def unseen_quota(state: StonesState) -> dict[int, int]:
    """Physical deck: per point value, how many cards of the game have never been seen."""
    seen = Counter(PATTERNS[c].points for c in located(state))
    return {points: count - seen[points] for points, count in state.composition}


def deck_size(state: StonesState) -> int:
    if state.deck_mode == "digital":
        return len(state.deck)
    return len(state.returned) + sum(unseen_quota(state).values())


def possible_draws(state: StonesState) -> list[str]:
    """Physical deck: every card that may be the next one drawn (the known returned ones and the unseen)."""
    quota = unseen_quota(state)
    known = located(state)
    fresh = [c for c, p in PATTERNS.items() if c not in known and quota[p.points] > 0]
    return sorted(set(fresh) | state.returned)


# Where a card is. "scored" and "hand" come with the seat; "outside": not in this game's digital deck (the solo
# deck holds only some of the cards); "unseen": a physical deck's card not drawn yet. The refusals say each place
# in a whole sentence of their own, so that every sentence can be translated.
Place = Literal["scored", "hand", "discard", "deck", "outside", "unseen"]


def place(state: StonesState, card: str) -> tuple[Place, int]:
    """(where a card is, the seat whose hand or scored cards hold it, else -1)."""
    for seat, p in enumerate(state.players):
        if card in p.scored:
            return "scored", seat
        if card in p.hand:
            return "hand", seat
    if card in state.discard:
        return "discard", -1
    if card in state.returned or card in state.deck:
        return "deck", -1
    if state.deck_mode == "digital":
        return "outside", -1
    return "unseen", -1


def end_target(state: StonesState) -> int | None:
    """How many scored cards start the final round (None in the solo game)."""
    return None if state.solo else END_TRIGGER[len(state.players)]
