"""The state of a Bohnanza table: where every one of the 154 cards is, whose turn it is and which step."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Literal

from companion.core import IllegalAction
from companion.games.bohnanza.beans import PLAYER_COUNTS, PlayerCount, bean_of

# deal: the table reveals the dealt hands (physical mode only)
# duel_offer: 2 players, the cards the opponent left must be planted or discarded
# plant: plant the front card of the hand, then optionally the next one
# turn_up: the cards are being turned up (physical mode waits for the table here)
# trade: trading and donating, until the active player ends it
# duel_plant: 2 players, plant any of the turned-up cards, the rest go to the opponent
# plant_set_aside: everybody plants the cards they kept, traded or were given
# draw: the active player draws to the back of the hand (physical mode waits for the table here)
Step = Literal["deal", "duel_offer", "plant", "turn_up", "trade", "duel_plant", "plant_set_aside", "draw", "over"]


@dataclasses.dataclass(frozen=True)
class Player:
    hand: tuple[str, ...]  # front first; the order never changes, new cards go to the back
    fields: tuple[tuple[str, ...], ...]  # each field holds cards of one bean, in planting order
    coins: tuple[str, ...]  # the bean cards turned over as coins, the newest last
    set_aside: tuple[str, ...]  # cards kept, traded or given this turn, to be planted in step 3
    bought_field: bool


@dataclasses.dataclass(frozen=True)
class Offer:
    """A proposed trade (or a gift, when nothing is wanted back). Nothing moves until it is accepted."""

    id: int
    sender: int
    receiver: int
    give: tuple[str, ...]  # the sender's cards: from their hand, or face-up cards if the sender is active
    want: tuple[str, ...]  # beans the receiver is to give from their hand (the receiver picks which cards)
    want_face_up: tuple[str, ...]  # face-up cards wanted from the receiver, who is then the active player


@dataclasses.dataclass(frozen=True)
class Rules:
    """The session's options that the rules need, fixed at setup."""

    physical: bool  # the deck is the real one: the table reveals every card dealt, turned up or drawn
    trade_seconds: int
    offers_per_turn: int
    duel_third_field_start: bool


@dataclasses.dataclass(frozen=True)
class BohnanzaState:
    players: tuple[Player, ...]
    # Digital: top card first. Physical: the order is unknown, so it is kept sorted (any card may come next).
    deck: tuple[str, ...]
    discard: tuple[str, ...]  # bottom first, top last
    removed: tuple[str, ...]  # out of the game: the beans not used at this player count, coins paid in the duel
    face_up: tuple[str, ...]
    offers: tuple[Offer, ...]
    active: int
    step: Step
    turn: int
    planted: int  # cards planted from the hand this turn
    discarded: bool  # duel: a hand card was discarded this turn
    to_reveal: int  # cards still to turn up or draw in this step
    offers_made: int  # this turn, counters included
    next_offer: int
    exhaustions: int
    last_turn: bool  # the deck ran out for the last time while turning up: the game ends after step 3
    seed: int
    rules: Rules

    @property
    def count(self) -> PlayerCount:
        return PLAYER_COUNTS[len(self.players)]

    @property
    def over(self) -> bool:
        return self.step == "over"


def with_player(state: BohnanzaState, seat: int, **changes: object) -> BohnanzaState:
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(state, players=tuple(players))


def plant_into(state: BohnanzaState, seat: int, card: str, field: int) -> BohnanzaState:
    fields = list(state.players[seat].fields)
    fields[field] = (*fields[field], card)
    return with_player(state, seat, fields=tuple(fields))


def field_bean(field: tuple[str, ...]) -> str | None:
    return bean_of(field[0]) if field else None


def fitting_fields(p: Player, bean: str) -> list[int]:
    """Fields a bean may go into: an empty one or one of the same bean."""
    return [i for i, f in enumerate(p.fields) if not f or bean_of(f[0]) == bean]


def check_field(p: Player, bean: str, field: int) -> None:
    if not 0 <= field < len(p.fields):
        raise IllegalAction(f"there is no field {field + 1}: you have {len(p.fields)}")
    held = p.fields[field]
    if held and bean_of(held[0]) != bean:
        raise IllegalAction(
            f"field {field + 1} holds {bean_of(held[0])} beans; a {bean} bean needs an empty field or one of "
            f"{bean} beans (harvest a field first)"
        )


def check_seat(state: BohnanzaState, seat: object) -> int:
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction(f"there is no player seat {seat}")
    return seat


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def all_places(state: BohnanzaState) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every pile of cards with a name for it: the conservation invariant and `locate` walk these."""
    yield "in the draw deck", state.deck
    yield "on the discard pile", state.discard
    yield "out of the game", state.removed
    yield "face up on the table", state.face_up
    for seat, p in enumerate(state.players):
        yield f"in seat {seat}'s hand", p.hand
        for i, f in enumerate(p.fields):
            yield f"in seat {seat}'s field {i + 1}", f
        yield f"among seat {seat}'s coins", p.coins
        yield f"set aside by seat {seat}", p.set_aside


def locate(state: BohnanzaState, card: str) -> str:
    for where, cards in all_places(state):
        if card in cards:
            return where
    raise IllegalAction(f"{card} is nowhere on this table")
