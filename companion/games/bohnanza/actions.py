"""The Bohnanza actions, named as the rulebook names them. Fields and hand positions count from 0."""

from __future__ import annotations

import dataclasses
from typing import Literal

from companion.core import Action


@dataclasses.dataclass(frozen=True)
class PlantBean(Action):
    """Plant a card in one of your fields: the front hand card, a set-aside card, or (2 players) a face-up one."""

    card: str
    field: int
    summary = "plant a bean card in one of your fields"


@dataclasses.dataclass(frozen=True)
class TurnUpCards(Action):
    """The active player ends planting from the hand and turns up the cards for trading (2, or 3 in the duel)."""

    summary = "stop planting from your hand and turn up the cards"


@dataclasses.dataclass(frozen=True)
class OfferTrade(Action):
    """Propose a trade to a player; with nothing wanted back it is a gift, with nothing given a request.

    `give` are positions in your hand (front = 0); `give_face_up` face-up cards (active player only);
    `want` beans from their hand; `want_face_up` face-up cards (when they are the active player).
    """

    to: int
    give: tuple[int, ...] = ()
    give_face_up: tuple[str, ...] = ()
    want: tuple[str, ...] = ()
    want_face_up: tuple[str, ...] = ()
    summary = "offer a trade or a gift; every trade involves the active player"
    # Positions in the hand: with the beans named in the log line, they would tell where each bean sits.
    private_fields = ("give",)


@dataclasses.dataclass(frozen=True)
class AcceptOffer(Action):
    """Accept an offer made to you; `give` are the positions in your hand of the beans it asks for."""

    offer: int
    give: tuple[int, ...] = ()
    summary = "accept an offer made to you"
    private_fields = ("give",)


@dataclasses.dataclass(frozen=True)
class RefuseOffer(Action):
    offer: int
    summary = "refuse an offer (or a gift) made to you"


@dataclasses.dataclass(frozen=True)
class CounterOffer(Action):
    """Refuse an offer made to you and propose another to its sender (fields as in OfferTrade)."""

    offer: int
    give: tuple[int, ...] = ()
    give_face_up: tuple[str, ...] = ()
    want: tuple[str, ...] = ()
    want_face_up: tuple[str, ...] = ()
    summary = "refuse an offer and propose another to its sender"
    private_fields = ("give",)


@dataclasses.dataclass(frozen=True)
class WithdrawOffer(Action):
    offer: int
    summary = "take back an offer you made"


@dataclasses.dataclass(frozen=True)
class EndTrading(Action):
    """The active player ends trading; the face-up cards left are theirs to plant. The host may send it when the
    trading time limit (option trade_seconds) is up."""

    summary = "end trading; the face-up cards left are yours to plant"


@dataclasses.dataclass(frozen=True)
class DiscardBean(Action):
    """Two players: discard the card from your hand (once a turn, after planting) or one your opponent left."""

    card: str
    summary = "discard a bean card (2 players)"


@dataclasses.dataclass(frozen=True)
class EndPlanting(Action):
    """Two players: stop planting the turned-up cards; the rest are left for your opponent."""

    summary = "leave the remaining face-up cards to your opponent"


@dataclasses.dataclass(frozen=True)
class Harvest(Action):
    """Harvest a field: coins by the beanometer, the other cards to the discard pile."""

    field: int
    summary = "harvest a field and sell its beans"


@dataclasses.dataclass(frozen=True)
class BuyField(Action):
    summary = "buy the third bean field"


@dataclasses.dataclass(frozen=True)
class DrawBean(Action):
    """TABLE: the card just dealt, turned up or drawn from the real deck (usually an NFC tap)."""

    card: str
    summary = "the card taken from the real deck"


@dataclasses.dataclass(frozen=True)
class CorrectCoins(Action):
    """HOST: fix a player's coins when the table and the companion disagree. Coins come from the top of the
    discard pile and go back onto it, so every card stays accounted for."""

    player: int
    delta: int
    host_only = True
    summary = "correct a player's coins"


@dataclasses.dataclass(frozen=True)
class CorrectField(Action):
    """HOST: set what lies in one of a player's fields (`count` cards of `bean`; 0 empties it). Cards taken off go
    onto the discard pile; cards added come from the discard pile (its top first), else from the deck."""

    player: int
    field: int
    bean: str
    count: int
    host_only = True
    summary = "correct what lies in a player's bean field"


@dataclasses.dataclass(frozen=True)
class CorrectHand(Action):
    """HOST: add a card of `bean` from the deck to the back of a player's hand, or put one from the hand back into
    the deck. A hand is secret: only the player and the host ever learn which bean it was."""

    player: int
    bean: str
    change: Literal["add", "remove"]
    host_only = True
    summary = "correct the cards in a player's hand"
    private_fields = ("bean",)


ACTION_KINDS: tuple[type[Action], ...] = (
    PlantBean,
    TurnUpCards,
    OfferTrade,
    AcceptOffer,
    RefuseOffer,
    CounterOffer,
    WithdrawOffer,
    EndTrading,
    DiscardBean,
    EndPlanting,
    Harvest,
    BuyField,
    DrawBean,
    CorrectCoins,
    CorrectField,
    CorrectHand,
)
