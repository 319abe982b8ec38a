"""Bohnanza bots: a trader that waits for answers and counters, and the search's hooks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.bots.base import outcome, squash
from companion.core import Action, Game, Seat
from companion.core.game import Bot
from companion.games.bohnanza.actions import (
    AcceptOffer,
    CounterOffer,
    PlantBean,
    RefuseOffer,
    TurnUpCards,
)
from companion.games.bohnanza.beans import BEANS, bean_of
from companion.games.bohnanza.bots import TraderBot, collecting
from companion.games.bohnanza.state import BohnanzaState

# How far ahead (in turns) a playout looks before it is judged; the end of the game is always played out.
HORIZON_TURNS = 4


class PatientTrader(TraderBot):
    """The trader, polite at a real table: as the active player it waits while an offer of its own is unanswered,
    and an offer it does not like it counters with one it would take, when it has one, instead of refusing."""

    def choose(
        self, game: Game[Any], state: BohnanzaState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        action = super().choose(game, state, seat, legal, rng)
        if isinstance(action, RefuseOffer):
            counter = self._counter(state, seat, action.offer, legal)
            if counter is not None:
                return counter
        if (state.step == "trade" and seat == state.active and action is not None
                and action.kind == "end_trading" and any(o.sender == seat for o in state.offers)):
            return None  # its offers are still open: the others answer first
        return action

    def _counter(self, state: BohnanzaState, seat: Seat, offer_id: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(seat, int):
            return None
        mine = collecting(state.players[seat])
        counters = [a for a in legal if isinstance(a, CounterOffer) and a.offer == offer_id]
        # A counter that asks for a face-up bean it grows, giving one it does not, and nothing more.
        good = [a for a in counters if len(a.want_face_up) == 1 and bean_of(a.want_face_up[0]) in mine
                and len(a.give) == 1 and bean_of(state.players[seat].hand[a.give[0]]) not in mine
                and not a.want and not a.give_face_up]
        return good[0] if good else None

    def give_up_waiting(self, state: BohnanzaState, seat: int, legal: Sequence[Action]) -> Action | None:
        """When people take too long to answer its offers: end trading (its offers lapse)."""
        ends = [a for a in legal if a.kind == "end_trading"]
        return ends[0] if ends else None


class BohnanzaHooks:
    """The search's view of Bohnanza: the optional second planting is searched (plant it, or another card, or turn
    up); everything else is the policy's. With `search_offers` it also weighs accepting against refusing an offer.

    Searching more lost games in the arena (see docs/bots.md): one round of playout, judged by coins and what the
    fields would pay now, cannot see what a third field or a field left to grow pays later, so searching buying
    the field and harvests is left out, and answers to offers did no better than the policy's.
    """

    def __init__(self, search_offers: bool = False) -> None:
        self._policy = PatientTrader()
        self.search_offers = search_offers

    def policy(self) -> Bot:
        return self._policy

    def candidates(
        self, game: Game[Any], state: BohnanzaState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> list[Action | None]:
        first = self._policy.choose(game, state, seat, legal, rng)
        out: list[Action | None] = [first]
        plants = [a for a in legal if isinstance(a, PlantBean)]
        if self.search_offers and any(o.receiver == seat for o in state.offers) and isinstance(
                first, AcceptOffer | RefuseOffer | CounterOffer):
            offer = first.offer
            accepts = [a for a in legal if isinstance(a, AcceptOffer) and a.offer == offer]
            if accepts:
                out.append(max(accepts, key=lambda a: sum(a.give)))
            out.append(RefuseOffer(seat, offer))
        elif state.step == "plant" and seat == state.active and state.planted == 1 and plants:
            out += [a for a in legal if isinstance(a, TurnUpCards)] + plants
        else:
            return [first] if first is not None else []
        unique: list[Action | None] = []
        for a in out:
            if (a is None or a in legal) and a not in unique:
                unique.append(a)
        return unique

    def determinize(self, game: Game[Any], state: BohnanzaState, seat: int, rng: random.Random) -> BohnanzaState:
        return game.indistinguishable(state, seat, rng)

    def stop(self, start: BohnanzaState, state: BohnanzaState, seat: int) -> bool:
        return state.turn >= start.turn + HORIZON_TURNS and state.step == "plant"

    def evaluate(self, game: Game[Any], state: BohnanzaState, seat: int) -> float:
        if game.is_over(state):
            return outcome(game, state, seat)
        worth = [_worth(state, s) for s in range(len(state.players))]
        best_other = max(w for s, w in enumerate(worth) if s != seat)
        return squash(worth[seat] - best_other, 3.0)


def _worth(state: BohnanzaState, seat: int) -> float:
    p = state.players[seat]
    growing = sum(BEANS[bean_of(f[0])].coins(len(f)) for f in p.fields if f)
    return len(p.coins) + growing + 0.1 * len(p.hand)
