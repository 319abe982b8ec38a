"""The bean cards: the eleven beans, their beanometers, the card ids, and the rules that vary with player count."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from importlib import resources
from typing import Any, Literal

from companion.core.words import Words
from companion.i18n import N_

DATA: dict[str, Any] = json.loads(
    resources.files("companion.games.bohnanza").joinpath("data/beans.json").read_text("utf-8")
)


@dataclasses.dataclass(frozen=True)
class Bean:
    """One kind of bean: how many cards it has and what its beanometer pays."""

    id: str
    name: str
    count: int
    # (beans needed, coins) from the fewest beans up; the first rung may pay more than one coin.
    beanometer: tuple[tuple[int, int], ...]

    def coins(self, beans: int) -> int:
        """Coins a harvest of `beans` of this kind pays."""
        paid = 0
        for needed, coins in self.beanometer:
            if beans >= needed:
                paid = coins
        return paid

    def next_rung(self, beans: int) -> tuple[int, int] | None:
        """(beans needed, coins) of the next beanometer step above `beans`, or None at the top."""
        for needed, coins in self.beanometer:
            if beans < needed:
                return needed, coins
        return None


@dataclasses.dataclass(frozen=True)
class PlayerCount:
    """The rules that change with the number of players (the rulebook's variations and the duel)."""

    players: int
    removed: tuple[str, ...]
    hands: tuple[int, ...]
    fields: int
    third_field_cost: int | None  # None: nobody may buy (everyone starts with three fields)
    field_coins_to: Literal["discard", "box"]
    turn_up: int
    draw: int
    exhaustions_to_end: int
    duel: bool


BEANS: dict[str, Bean] = {
    b["id"]: Bean(
        b["id"],
        b["name"],
        b["count"],
        tuple(sorted((needed, int(coins)) for coins, needed in b["beanometer"].items())),
    )
    for b in DATA["beans"]
}

PLAYER_COUNTS: dict[int, PlayerCount] = {
    int(n): PlayerCount(
        int(n),
        tuple(r["removed"]),
        tuple(r["hands"]),
        r["fields"],
        r["third_field_cost"],
        r["field_coins_to"],
        r["turn_up"],
        r["draw"],
        r["exhaustions_to_end"],
        r["duel"],
    )
    for n, r in DATA["player_counts"].items()
}


def card_id(bean: str, number: int) -> str:
    """The id of one physical card: the bean and its number within its kind ("chili-03")."""
    return f"{bean}-{number:02d}"


# Every physical card, in the order of the data file; this is also the enrollment order for NFC tags.
CARDS: tuple[str, ...] = tuple(card_id(b.id, i) for b in BEANS.values() for i in range(1, b.count + 1))
BEAN_OF: dict[str, str] = {card_id(b.id, i): b.id for b in BEANS.values() for i in range(1, b.count + 1)}


def bean_of(card: str) -> str:
    return BEAN_OF[card]


def bean_name(bean: str) -> str:
    return BEANS[bean].name


def card_words(card: str) -> Words:
    """How a card reads for people, in any language: "Chili Bean 3 of 18"."""
    bean = BEANS[BEAN_OF[card]]
    copy = int(card.rsplit("-", 1)[1])
    return Words(N_("{bean} {n} of {count}"), {"bean": bean.name, "n": copy, "count": bean.count})


def card_label(card: str) -> str:
    """How a card reads in English: "Chili Bean 3 of 18"."""
    return str(card_words(card))


@cache
def beans_in_play(players: int) -> tuple[str, ...]:
    removed = PLAYER_COUNTS[players].removed
    return tuple(b for b in BEANS if b not in removed)


@cache
def cards_in_play(players: int) -> tuple[str, ...]:
    removed = PLAYER_COUNTS[players].removed
    return tuple(c for c in CARDS if BEAN_OF[c] not in removed)
