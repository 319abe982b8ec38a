"""The actions of Power Grid, named as in the rulebook, with their JSON form."""

from __future__ import annotations

import dataclasses
from typing import Literal

from companion.core import Action


@dataclasses.dataclass(frozen=True)
class ChooseRegions(Action):
    """HOST: the regions the game is played in (contiguous; 3/3/4/5/5 for 2-6 players)."""

    regions: tuple[str, ...]
    host_only = True
    summary = "choose the regions of the map the game is played in"


@dataclasses.dataclass(frozen=True)
class OpenAuction(Action):
    """Put a plant of the current market up for auction with a first bid of at least its number."""

    plant: int
    bid: int
    summary = "open an auction for a plant with a first bid"


@dataclasses.dataclass(frozen=True)
class DeclineToOpen(Action):
    """Open no auction and so buy no plant this round (not allowed in round 1)."""

    summary = "buy no plant this round"


@dataclasses.dataclass(frozen=True)
class Bid(Action):
    """Raise the bid in the running auction."""

    amount: int
    summary = "bid more for the plant on auction"


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    """Leave the running auction."""

    summary = "leave this auction"


@dataclasses.dataclass(frozen=True)
class DiscardPlant(Action):
    """Over the plant limit: give up one of your old plants."""

    plant: int
    summary = "discard one of your old plants"


@dataclasses.dataclass(frozen=True)
class FinishDiscard(Action):
    """Return what is left on the discarded plant to the supply."""

    summary = "return what is left on the discarded plant to the supply"


@dataclasses.dataclass(frozen=True)
class MoveResources(Action):
    """Move resources from one of your plants to another that can store them."""

    from_plant: int
    to_plant: int
    resource: str
    count: int
    summary = "move resources between your plants"


@dataclasses.dataclass(frozen=True)
class BuyResources(Action):
    """Buy resources from the market onto one of your plants (the cheapest tokens first)."""

    plant: int
    resource: str
    count: int
    summary = "buy resources onto a plant"


@dataclasses.dataclass(frozen=True)
class EndBuying(Action):
    summary = "finish buying resources"


@dataclasses.dataclass(frozen=True)
class BuildCity(Action):
    """Build a house in a city: its slot price plus the cheapest connection from your network."""

    city: str
    summary = "build a house in a city"


@dataclasses.dataclass(frozen=True)
class EndBuilding(Action):
    summary = "finish building"


@dataclasses.dataclass(frozen=True)
class Fire(Action):
    """Fire these plants; hybrids burn `hybrid_coal` coal in all and oil for the rest."""

    plants: tuple[int, ...]
    hybrid_coal: int = 0
    summary = "fire plants to power cities and earn income"


@dataclasses.dataclass(frozen=True)
class RevealPlant(Action):
    """TABLE: the plant drawn from the real deck (an NFC tap)."""

    plant: int
    summary = "the plant drawn from the deck"


@dataclasses.dataclass(frozen=True)
class RevealStep3(Action):
    """TABLE: the Step 3 card came up from the real deck."""

    summary = "the Step 3 card was drawn"


@dataclasses.dataclass(frozen=True)
class AdjustMoney(Action):
    """HOST: correct a player's Elektro when the table and the companion disagree."""

    target: int
    delta: int
    host_only = True
    summary = "correct a player's money"


@dataclasses.dataclass(frozen=True)
class CorrectHouse(Action):
    """HOST: add or remove a player's house in a city, as the board shows it (money is corrected apart)."""

    player: int
    city: str
    change: Literal["add", "remove"]
    host_only = True
    summary = "correct a player's houses on the map"


@dataclasses.dataclass(frozen=True)
class CorrectStock(Action):
    """HOST: set what one owned plant holds; tokens added come from the supply, tokens taken off go back to it."""

    plant: int
    coal: int = 0
    oil: int = 0
    garbage: int = 0
    uranium: int = 0
    host_only = True
    summary = "correct the resources on a plant"


@dataclasses.dataclass(frozen=True)
class MovePlant(Action):
    """HOST: give a plant to a player (`owner`) from wherever it is, or (owner null) put a player's plant back into
    the market. A plant taken from the market is replaced from the deck as usual."""

    plant: int
    owner: int | None
    host_only = True
    summary = "correct who owns a plant"


@dataclasses.dataclass(frozen=True)
class SwapPlants(Action):
    """HOST: two plants exchange places (market, a player, the deck, out of the game): the table drew or handed
    out the wrong card."""

    plant: int
    other: int
    host_only = True
    summary = "swap two plants between the market, the players and the deck"


ACTION_KINDS: tuple[type[Action], ...] = (
    ChooseRegions,
    OpenAuction,
    DeclineToOpen,
    Bid,
    Pass,
    DiscardPlant,
    FinishDiscard,
    MoveResources,
    BuyResources,
    EndBuying,
    BuildCity,
    EndBuilding,
    Fire,
    RevealPlant,
    RevealStep3,
    AdjustMoney,
    CorrectHouse,
    CorrectStock,
    MovePlant,
    SwapPlants,
)
