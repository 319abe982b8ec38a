"""Scenario helpers for the Bohnanza tests: a known table, action scripts, and the conservation invariant."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from companion.core import TABLE, Action, IllegalAction, LogMessage, get_game
from companion.games.bohnanza.actions import DrawBean
from companion.games.bohnanza.beans import CARDS
from companion.games.bohnanza.state import BohnanzaState, Player, all_places

GAME = get_game("bohnanza")


class Table:
    """A game under test: apply action scripts, keep the log, check refusals leave the state alone."""

    def __init__(self, state: BohnanzaState) -> None:
        self.state = state
        self.log: list[LogMessage] = []

    def do(self, *actions: Action) -> list[LogMessage]:
        new: list[LogMessage] = []
        for action in actions:
            self.state, log = GAME.apply(self.state, action)
            new.extend(log)
        self.log.extend(new)
        conserved(self.state)
        return new

    def refuses(self, action: Action, reason: str) -> str:
        before = self.state
        with pytest.raises(IllegalAction, match=reason) as info:
            GAME.apply(self.state, action)
        assert self.state == before
        return info.value.reason

    def texts(self, seat: int | None = None) -> list[str]:
        return [m.render() for m in self.log if m.visible(seat)]

    @property
    def players(self) -> tuple[Player, ...]:
        return self.state.players

    def hand(self, seat: int) -> tuple[str, ...]:
        return self.state.players[seat].hand

    def fields(self, seat: int) -> tuple[tuple[str, ...], ...]:
        return self.state.players[seat].fields

    def coins(self, seat: int) -> int:
        return len(self.state.players[seat].coins)


def dealt(players: int, hands: Sequence[Sequence[str]], options: dict[str, Any] | None = None) -> Table:
    """A physical-mode table whose hands the table dealt as given (front card first), so every card is known."""
    config = GAME.make_config(players, "physical", options)
    table = Table(GAME.setup(config, random.Random(0)))
    table.do(*(DrawBean(TABLE, card) for hand in hands for card in hand))
    return table


def digital(players: int, seed: int = 1, options: dict[str, Any] | None = None) -> Table:
    config = GAME.make_config(players, "digital", options)
    return Table(GAME.setup(config, random.Random(seed)))


def move(state: BohnanzaState, cards: Iterable[str], to: str, seat: int = 0, field: int = 0) -> BohnanzaState:
    """Arrange a known setup: take the named cards from wherever they are and put them in one place.

    `to` is "deck_top" (in this order, first on top), "discard" (last on top), "removed", "face_up",
    or for `seat`: "hand" (to the back), "field" (`field`), "coins", "set_aside".
    """
    cards = list(cards)
    gone = set(cards)
    players = [
        dataclasses.replace(
            p,
            hand=tuple(c for c in p.hand if c not in gone),
            fields=tuple(tuple(c for c in f if c not in gone) for f in p.fields),
            coins=tuple(c for c in p.coins if c not in gone),
            set_aside=tuple(c for c in p.set_aside if c not in gone),
        )
        for p in state.players
    ]
    state = dataclasses.replace(
        state,
        players=tuple(players),
        deck=tuple(c for c in state.deck if c not in gone),
        discard=tuple(c for c in state.discard if c not in gone),
        removed=tuple(c for c in state.removed if c not in gone),
        face_up=tuple(c for c in state.face_up if c not in gone),
    )
    if to == "deck_top":
        return dataclasses.replace(state, deck=(*cards, *state.deck))
    if to in ("discard", "removed", "face_up"):
        return dataclasses.replace(state, **{to: (*getattr(state, to), *cards)})
    p = state.players[seat]
    if to == "field":
        fields = list(p.fields)
        fields[field] = (*fields[field], *cards)
        changed = dataclasses.replace(p, fields=tuple(fields))
    else:
        changed = dataclasses.replace(p, **{to: (*getattr(p, to), *cards)})
    players[seat] = changed
    return dataclasses.replace(state, players=tuple(players))


def cards(bean: str, first: int, last: int | None = None) -> list[str]:
    """Card ids of one bean, numbers first..last: cards("chili", 1, 3) == ["chili-01", "chili-02", "chili-03"]."""
    return [f"{bean}-{i:02d}" for i in range(first, (last if last is not None else first) + 1)]


def conserved(state: BohnanzaState, config: object = None) -> None:
    """Every one of the 154 cards is in exactly one place: deck, discard, hands, fields, face-up, set aside,
    coins, or out of the game."""
    seen = Counter(c for _, pile in all_places(state) for c in pile)
    twice = [c for c, k in seen.items() if k > 1]
    assert not twice, f"cards in two places: {twice[:5]}"
    assert set(seen) == set(CARDS), f"cards missing: {sorted(set(CARDS) - set(seen))[:5]}"
    for seat, p in enumerate(state.players):
        for f in p.fields:
            assert len({c.rsplit('-', 1)[0] for c in f}) <= 1, f"seat {seat} has a field of mixed beans: {f}"
