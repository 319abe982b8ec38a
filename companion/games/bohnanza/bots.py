"""Selfplay bots: the trader plants where beans pay and trades for the beans it is collecting."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.core import TABLE, Action, Game, Seat
from companion.games.bohnanza.actions import (
    AcceptOffer,
    BuyField,
    DiscardBean,
    EndPlanting,
    EndTrading,
    Harvest,
    OfferTrade,
    PlantBean,
    RefuseOffer,
    TurnUpCards,
)
from companion.games.bohnanza.beans import BEANS, bean_of
from companion.games.bohnanza.state import BohnanzaState, Offer, Player, field_bean

# Offers per trading phase after which the trader stops proposing (it still answers).
ACTIVE_OFFERS = 4
OTHER_OFFERS = 8
# How far into its hand it looks for cards to give away.
SPARE_DEPTH = 3


def collecting(p: Player) -> set[str]:
    return {b for f in p.fields if (b := field_bean(f))}


def _harvest_value(p: Player, field: int) -> tuple[int, int]:
    f = p.fields[field]
    coins = BEANS[bean_of(f[0])].coins(len(f))
    return coins, -(len(f) - coins)


class TraderBot:
    """Plants where beans pay; as the active player keeps the face-up cards it collects and offers the rest to
    players who collect them, asking for its own beans back; as another player asks for face-up cards it collects,
    giving its spare cards; accepts offers that bring beans it collects. Off turn it passes unless asked."""

    def choose(
        self, game: Game[Any], state: BohnanzaState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        if seat == TABLE or not isinstance(seat, int):
            return rng.choice(list(legal))
        p = state.players[seat]
        buy = [a for a in legal if isinstance(a, BuyField)]
        if buy:
            return buy[0]
        active = seat == state.active
        step = state.step
        if step == "plant_set_aside" and p.set_aside:
            return self._plant(p, legal, rng, must=True)
        if active and step == "plant":
            plants = [a for a in legal if isinstance(a, PlantBean)]
            if state.planted == 0 and p.hand:
                return self._plant(p, legal, rng, must=True)
            if plants and bean_of(plants[0].card) in collecting(p):
                return self._plant(p, legal, rng, must=False) or TurnUpCards(seat)
            return TurnUpCards(seat)
        if active and step == "duel_offer":
            return self._plant(p, legal, rng, must=False) or next(a for a in legal if isinstance(a, DiscardBean))
        if active and step == "duel_plant":
            return self._plant(p, legal, rng, must=False) or EndPlanting(seat)
        if step == "trade":
            answer = self._answer(state, seat, legal)
            if answer:
                return answer
            offer = self._propose(state, seat, legal)
            if offer:
                return offer
            if active:
                return EndTrading(seat)
        return self._ripe_harvest(p, legal)

    def _plant(self, p: Player, legal: Sequence[Action], rng: random.Random, must: bool) -> Action | None:
        """The planting that grows a field of the same bean, else one into an empty field; if a card must be
        planted and fits nowhere, the harvest that pays most."""
        plants = [a for a in legal if isinstance(a, PlantBean)]
        growing = [a for a in plants if p.fields[a.field]]
        if growing:
            return max(growing, key=lambda a: len(p.fields[a.field]))
        if plants:
            return plants[0]
        if not must:
            return None
        harvests = [a for a in legal if isinstance(a, Harvest)]
        if harvests:
            return max(harvests, key=lambda a: _harvest_value(p, a.field))
        return rng.choice(list(legal))

    def _answer(self, state: BohnanzaState, seat: int, legal: Sequence[Action]) -> Action | None:
        p = state.players[seat]
        for offer in state.offers:
            if offer.receiver != seat:
                continue
            accepts = [a for a in legal if isinstance(a, AcceptOffer) and a.offer == offer.id]
            if accepts and self._worth(p, offer) > 0:
                # Give the rearmost matching cards: the front of the hand is what gets planted next.
                return max(accepts, key=lambda a: sum(a.give))
            return RefuseOffer(seat, offer.id)
        return None

    def _worth(self, p: Player, offer: Offer) -> int:
        mine = collecting(p)
        empty = any(not f for f in p.fields)
        value = 0
        for card in offer.give:
            bean = bean_of(card)
            value += 2 if bean in mine else (0 if empty else -2)
        for bean in (*offer.want, *(bean_of(c) for c in offer.want_face_up)):
            value += -2 if bean in mine else 1
        return value

    def _propose(self, state: BohnanzaState, seat: int, legal: Sequence[Action]) -> Action | None:
        """One offer at a time: cards it does not grow go to players who grow them, for a bean it grows if
        possible; as another player it asks for the face-up cards it grows."""
        p = state.players[seat]
        mine = collecting(p)
        offers = [a for a in legal if isinstance(a, OfferTrade)]
        named = {c for o in state.offers if o.sender == seat for c in (*o.give, *o.want_face_up)}
        # The front of the hand is planted soonest, so a card there that it does not grow is worth giving away.
        spare = [i for i, c in enumerate(p.hand[:SPARE_DEPTH]) if bean_of(c) not in mine and c not in named]
        if seat == state.active:
            if state.offers_made >= ACTIVE_OFFERS:
                return None
            unwanted = [((), (c,), c) for c in state.face_up if bean_of(c) not in mine and c not in named]
            unwanted += [((i,), (), p.hand[i]) for i in spare]
            for give, give_face_up, card in unwanted:
                takers = {t for t, q in enumerate(state.players) if t != seat and bean_of(card) in collecting(q)}
                options = [a for a in offers if (a.give, a.give_face_up) == (give, give_face_up) and a.to in takers]
                trades = [a for a in options if a.want and a.want[0] in mine]
                gifts = [a for a in options if not a.want and not a.want_face_up]
                if trades or gifts:
                    return (trades or gifts)[0]
            return None
        if state.offers_made >= OTHER_OFFERS:
            return None
        for card in state.face_up:
            if bean_of(card) in mine and card not in named:
                trades = [a for a in offers if a.want_face_up == (card,) and a.give and a.give[0] in spare]
                if trades:
                    return trades[0]
        active_grows = collecting(state.players[state.active])
        for i in spare:
            if bean_of(p.hand[i]) in active_grows:
                gifts = [a for a in offers if a.give == (i,) and not a.want and not a.want_face_up]
                if gifts:
                    return gifts[0]
        return None

    def _ripe_harvest(self, p: Player, legal: Sequence[Action]) -> Action | None:
        """A field whose beanometer can pay no more is harvested; otherwise nothing (pass)."""
        for a in legal:
            if isinstance(a, Harvest):
                f = p.fields[a.field]
                if BEANS[bean_of(f[0])].next_rung(len(f)) is None:
                    return a
        return None
