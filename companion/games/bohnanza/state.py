"""The state of a Bohnanza table: where every one of the 154 cards is, whose turn it is and which step."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Literal

from companion.core import IllegalAction
from companion.games.bohnanza.beans import PLAYER_COUNTS, PlayerCount, bean_of, card_label
from companion.i18n import N_

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
    offers_per_turn: int  # 0: no limit (a human table); bots and the playout harness keep their own cap
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

    @property
    def offers_left(self) -> int | None:
        """Offers still allowed this turn under the option offers_per_turn; None when there is no limit."""
        limit = self.rules.offers_per_turn
        return None if limit <= 0 else max(0, limit - self.offers_made)

    @property
    def may_offer(self) -> bool:
        return self.offers_left != 0


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
        raise IllegalAction("there is no field {field}: you have {count}", field=field + 1, count=len(p.fields))
    held = p.fields[field]
    if held and bean_of(held[0]) != bean:
        raise IllegalAction(
            "field {field} holds {field_bean} beans; a {bean} bean needs an empty field or one of {bean} beans "
            "(harvest a field first)",
            field=field + 1,
            field_bean=bean_of(held[0]),
            bean=bean,
        )


def check_seat(state: BohnanzaState, seat: object) -> int:
    if not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalAction("there is no player {seat}: the players are 1 to {count}", seat=seat_param(seat),
                             count=len(state.players))
    return seat


def seat_param(seat: object) -> int | str:
    """A seat as a refusal's param: the number counted from 1 as people count (or "host", "table"), anything else
    as its text."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat + 1
    return seat if isinstance(seat, str) else str(seat)


def no_hand_card(position: int, count: int) -> IllegalAction:
    """A hand position (from 0) past the end of a hand of `count` cards; the English ordinal is in the sentence."""
    n = position + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if suffix == "st":
        return IllegalAction("your hand has no {position}st card: it holds {count}; choose one of those",
                             position=n, count=count)
    if suffix == "nd":
        return IllegalAction("your hand has no {position}nd card: it holds {count}; choose one of those",
                             position=n, count=count)
    if suffix == "rd":
        return IllegalAction("your hand has no {position}rd card: it holds {count}; choose one of those",
                             position=n, count=count)
    return IllegalAction("your hand has no {position}th card: it holds {count}; choose one of those",
                         position=n, count=count)


def all_places(state: BohnanzaState) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every pile of cards with a name for it: the conservation invariant walks these."""
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


Place = Literal["deck", "discard", "removed", "face_up", "hand", "field", "coins", "set_aside"]


def place_of(state: BohnanzaState, card: str) -> tuple[Place, dict[str, int]]:
    """Where a card is, for a refusal: the kind of place and its params (the seat, and the field counted from 1)."""
    piles: tuple[tuple[Place, tuple[str, ...]], ...] = (
        ("deck", state.deck),
        ("discard", state.discard),
        ("removed", state.removed),
        ("face_up", state.face_up),
    )
    for place, cards in piles:
        if card in cards:
            return place, {}
    for seat, p in enumerate(state.players):
        if card in p.hand:
            return "hand", {"player": seat}
        for i, f in enumerate(p.fields):
            if card in f:
                return "field", {"player": seat, "field": i + 1}
        if card in p.coins:
            return "coins", {"player": seat}
        if card in p.set_aside:
            return "set_aside", {"player": seat}
    raise IllegalAction(
        "{card} is nowhere on this table: its bean is not played in this game; tap a card of this game",
        card=card
    )


# Refusals that say where a card is: one whole sentence per place (never a phrase put into a sentence), so each
# reads right in every language. {card} is the card as people read it ("Chili Bean 3 of 18").
Ending = Literal["over", "reveal", "nothing", "not_in_deck"]
CARD_IS: dict[Ending, dict[Place, str]] = {
    # A tap after the game ended.
    "over": {
        "deck": N_("the game is over; {card} is in the draw deck: the host can start a new game"),
        "discard": N_("the game is over; {card} is on the discard pile: the host can start a new game"),
        "removed": N_("the game is over; {card} is out of the game: the host can start a new game"),
        "face_up": N_("the game is over; {card} is face up on the table: the host can start a new game"),
        "hand": N_("the game is over; {card} is in {player}'s hand: the host can start a new game"),
        "field": N_("the game is over; {card} is in {player}'s field {field}: the host can start a new game"),
        "coins": N_("the game is over; {card} is among {player}'s coins: the host can start a new game"),
        "set_aside": N_("the game is over; {card} is set aside by {player}: the host can start a new game"),
    },
    # A tap while the table is to reveal a card from the deck (a card in the deck is the one revealed).
    "reveal": {
        "discard": N_("{card} is on the discard pile; tap the card taken from the draw deck"),
        "removed": N_("{card} is out of the game; tap the card taken from the draw deck"),
        "face_up": N_("{card} is face up on the table; tap the card taken from the draw deck"),
        "hand": N_("{card} is in {player}'s hand; tap the card taken from the draw deck"),
        "field": N_("{card} is in {player}'s field {field}; tap the card taken from the draw deck"),
        "coins": N_("{card} is among {player}'s coins; tap the card taken from the draw deck"),
        "set_aside": N_("{card} is set aside by {player}; tap the card taken from the draw deck"),
    },
    # A tap of a card that is nobody's to plant now.
    "nothing": {
        "deck": N_("{card} is in the draw deck; a tap of it means nothing now: tap only the card you are planting"),
        "discard": N_("{card} is on the discard pile; a tap of it means nothing now: tap only the card you are "
                      "planting"),
        "removed": N_("{card} is out of the game; a tap of it means nothing now: tap only the card you are planting"),
        "face_up": N_("{card} is face up on the table; a tap of it means nothing now: tap only the card you are "
                      "planting"),
        "hand": N_("{card} is in {player}'s hand; a tap of it means nothing now: tap only the card you are planting"),
        "field": N_("{card} is in {player}'s field {field}; a tap of it means nothing now: tap only the card you are "
                    "planting"),
        "coins": N_("{card} is among {player}'s coins; a tap of it means nothing now: tap only the card you are "
                    "planting"),
        "set_aside": N_("{card} is set aside by {player}; a tap of it means nothing now: tap only the card you are "
                        "planting"),
    },
    # The table revealed a card that is not in the deck (so never "deck").
    "not_in_deck": {
        "discard": N_("{card} is on the discard pile, not in the draw deck: tap the card taken from the draw deck"),
        "removed": N_("{card} is out of the game, not in the draw deck: tap the card taken from the draw deck"),
        "face_up": N_("{card} is face up on the table, not in the draw deck: tap the card taken from the draw deck"),
        "hand": N_("{card} is in {player}'s hand, not in the draw deck: tap the card taken from the draw deck"),
        "field": N_("{card} is in {player}'s field {field}, not in the draw deck: tap the card taken from the draw "
                    "deck"),
        "coins": N_("{card} is among {player}'s coins, not in the draw deck: tap the card taken from the draw deck"),
        "set_aside": N_("{card} is set aside by {player}, not in the draw deck: tap the card taken from the draw deck"),
    },
}


def card_is(state: BohnanzaState, card: str, ending: Ending) -> IllegalAction:
    """The refusal that says where `card` is, ending as `ending` says."""
    place, params = place_of(state, card)
    return IllegalAction(CARD_IS[ending][place], card=card, **params).english(card=card_label(card))
