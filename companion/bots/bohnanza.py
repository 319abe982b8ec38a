"""Bohnanza bots: a trader that waits for answers and counters, a trader that values fields and trades, and the
search's hooks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.bots.base import outcome, squash
from companion.core import Action, Game, Seat
from companion.core.game import Bot
from companion.games.bohnanza.actions import (
    AcceptOffer,
    BuyField,
    CounterOffer,
    EndTrading,
    Harvest,
    OfferTrade,
    PlantBean,
    RefuseOffer,
    TurnUpCards,
)
from companion.games.bohnanza.beans import BEANS, bean_of, cards_in_play
from companion.games.bohnanza.bots import TraderBot, collecting
from companion.games.bohnanza.state import BohnanzaState, Offer, Player

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
    up); every other decision is the valuing trader's (`ValueTrader`; with `valuing=False` the patient trader's,
    as before). Playouts play the patient trader for every seat. With `search_offers` it also weighs accepting
    against refusing an offer.

    Searching more lost games in the arena (see docs/bots.md): one round of playout, judged by coins and what the
    fields would pay now, cannot see what a third field or a field left to grow pays later, so searching buying
    the field and harvests is left out, and answers to offers did no better than the policy's.
    """

    def __init__(self, search_offers: bool = False, valuing: bool = True) -> None:
        self._policy = PatientTrader()
        # The search's own first choice (and every decision it does not search): the valuing trader.
        self._lead: Bot = ValueTrader() if valuing else self._policy
        self.search_offers = search_offers

    def policy(self) -> Bot:
        return self._policy

    def candidates(
        self, game: Game[Any], state: BohnanzaState, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> list[Action | None]:
        first = self._lead.choose(game, state, seat, legal, rng)
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


# -- the valuing trader (the `strong` level's policy) ------------------------------------------------------------
# Cards of its bean a collected field is expected to gain per turn of its owner, per unit share of the unseen beans
# (two face-up cards, three drawn, and trades), and how many of the owner's turns a field is expected to live.
GROWTH_PER_TURN = 4.0
FIELD_LIFE_TURNS = 3.0
# How much of the expected growth a field is credited with (a field may have to be harvested early).
GROWTH_CREDIT = 0.8
# Hand cards forecast (the front ones are planted first; later ones may still be traded away).
HAND_DEPTH = 5
# Weight of a trading partner's gain against the bot's own: more when the partner leads.
PARTNER_WEIGHT = 0.3
LEADER_WEIGHT = 0.6
# The least gain (in coins) for which it accepts an offer, makes one, or harvests when nothing forces it.
ACCEPT_MARGIN = 0.2
PROPOSE_MARGIN = 0.3
HARVEST_MARGIN = 0.05
# Offers per trading phase after which it stops proposing (it still answers).
VALUE_ACTIVE_OFFERS = 6
VALUE_OTHER_OFFERS = 8
# Whether it counters an offer it refuses with one it would take (1) or just refuses (0).
COUNTERS = 1


class Outlook:
    """What one seat can count: how many cards of each bean are still unseen by it (deck, discard pile, others'
    hands) and about how many turns are left, hence how much a field of each bean can still be expected to grow."""

    def __init__(self, state: BohnanzaState, seat: int) -> None:
        n = len(state.players)
        unseen: dict[str, int] = {}
        for card in cards_in_play(n):
            b = bean_of(card)
            unseen[b] = unseen.get(b, 0) + 1
        me = state.players[seat]
        seen: list[str] = [*me.hand, *state.face_up, *state.removed]
        for p in state.players:
            seen += p.set_aside
            seen += p.coins
            for f in p.fields:
                seen += f
        for card in seen:
            b = bean_of(card)
            if b in unseen:  # beans not played at this player count are out of the game from the start
                unseen[b] -= 1
        total = max(1, sum(unseen.values()))
        count = state.count
        passes_left = max(0, count.exhaustions_to_end - state.exhaustions - 1)
        cards_left = len(state.deck) + passes_left * (len(state.discard) + len(state.deck) / 2)
        own_turns = cards_left / max(1, count.turn_up + count.draw) / n
        horizon = min(own_turns, FIELD_LIFE_TURNS)
        self.extra = {b: min(float(k), GROWTH_PER_TURN * k / total * horizon) for b, k in unseen.items()}

    def worth(self, bean: str, n: int) -> float:
        """What a field of `n` beans is worth now: its harvest, plus credit for the growth still expected."""
        if n <= 0:
            return 0.0
        scale = BEANS[bean]
        now = scale.coins(n)
        x = n + self.extra.get(bean, 0.0)
        k = int(x)
        low = scale.coins(k)
        later = low + (x - k) * (scale.coins(k + 1) - low)
        return now + GROWTH_CREDIT * (later - now)

    def fields_after(self, fields: list[tuple[str, int]], beans: Sequence[str]) -> float:
        """Coins earned plus the fields' worth after planting `beans` in order, each where it grows a field, else in
        an empty one, else after harvesting the field whose harvest loses least against its worth."""
        fields = list(fields)
        earned = 0.0
        for bean in beans:
            same = [i for i, (b, n) in enumerate(fields) if b == bean and n > 0]
            if same:
                i = max(same, key=lambda j: fields[j][1])
                fields[i] = (bean, fields[i][1] + 1)
                continue
            empty = [i for i, (_, n) in enumerate(fields) if n == 0]
            if empty:
                fields[empty[0]] = (bean, 1)
                continue
            crowded = any(n >= 2 for _, n in fields)
            allowed = [i for i, (_, n) in enumerate(fields) if n >= 2 or not crowded]
            i = min(allowed, key=lambda j: self.worth(*fields[j]) - BEANS[fields[j][0]].coins(fields[j][1]))
            earned += BEANS[fields[i][0]].coins(fields[i][1])
            fields[i] = (bean, 1)
        return earned + sum(self.worth(b, n) for b, n in fields)


def _fields(p: Player) -> list[tuple[str, int]]:
    return [(bean_of(f[0]), len(f)) if f else ("", 0) for f in p.fields]


class ValueTrader(PatientTrader):
    """The patient trader that values what it does: each field is worth its harvest plus the growth still expected
    from the unseen cards of its bean, and its hand is worth what planting it in order will force. Forced harvests,
    planting, answers to offers and its own offers are chosen by that valuation; an offer must be good for the bot
    by more than it helps the partner (weighed more when the partner leads), and likely acceptable to the partner.
    It reads only what its seat knows: its hand, the public fields, coins and discards."""

    def choose(
        self, game: Game[Any], state: BohnanzaState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        if not isinstance(seat, int) or state.count.duel or state.step in ("deal", "over"):
            return super().choose(game, state, seat, legal, rng)
        buy = [a for a in legal if isinstance(a, BuyField)]
        if buy:
            return buy[0]
        p = state.players[seat]
        active = seat == state.active
        look = Outlook(state, seat)
        if (state.step == "plant_set_aside" and p.set_aside) or (
                active and state.step == "plant" and state.planted == 0 and p.hand):
            return self._planting(state, seat, legal, look)
        if active and state.step == "plant":
            return super().choose(game, state, seat, legal, rng)
        if state.step == "trade":
            answer = self._answer_by_value(state, seat, legal, look)
            if answer is not None:
                return answer
            offer = self._propose_by_value(state, seat, legal, look)
            if offer is not None:
                return offer
            if active:
                if any(o.sender == seat for o in state.offers):
                    return None
                return EndTrading(seat)
        return self._ripe_harvest(p, legal)

    # -- valuations --------------------------------------------------------------------------------------------
    def _value(self, state: BohnanzaState, seat: int, p: Player, look: Outlook, hand: bool = True,
               extra: Sequence[str] = (), gone_face_up: Sequence[str] = ()) -> float:
        beans = [bean_of(c) for c in p.set_aside] + list(extra)
        if seat == state.active and state.step == "trade":
            beans += [bean_of(c) for c in state.face_up if c not in gone_face_up]
        if hand:
            beans += [bean_of(c) for c in p.hand[:HAND_DEPTH]]
        return len(p.coins) + look.fields_after(_fields(p), beans)

    def _partner_weight(self, state: BohnanzaState, seat: int, partner: int, look: Outlook) -> float:
        public = {s: len(q.coins) + sum(look.worth(b, n) for b, n in _fields(q) if n)
                  for s, q in enumerate(state.players) if s != seat}
        leader = max(public, key=lambda s: public[s])
        return LEADER_WEIGHT if partner == leader else PARTNER_WEIGHT

    # -- planting ----------------------------------------------------------------------------------------------
    def _planting(self, state: BohnanzaState, seat: int, legal: Sequence[Action], look: Outlook) -> Action | None:
        p = state.players[seat]
        best: Action | None = None
        best_value = -1e9
        for a in legal:
            if isinstance(a, PlantBean):
                fields = list(p.fields)
                fields[a.field] = (*fields[a.field], a.card)
                q = Player(tuple(c for c in p.hand if c != a.card), tuple(fields), p.coins,
                           tuple(c for c in p.set_aside if c != a.card), p.bought_field)
                value = self._value(state, seat, q, look)
            elif isinstance(a, Harvest):
                f = p.fields[a.field]
                paid = BEANS[bean_of(f[0])].coins(len(f))
                fields = list(p.fields)
                fields[a.field] = ()
                q = Player(p.hand, tuple(fields), p.coins + f[:paid], p.set_aside, p.bought_field)
                value = self._value(state, seat, q, look) - HARVEST_MARGIN
            else:
                continue
            if value > best_value:
                best, best_value = a, value
        return best if best is not None else self._plant(p, legal, random.Random(0), must=True)

    # -- trading -----------------------------------------------------------------------------------------------
    def _gain(self, state: BohnanzaState, seat: int, partner: int, look: Outlook, mine_out: Sequence[int],
              face_up_out: Sequence[str], get: Sequence[str], partner_gets: Sequence[str],
              partner_face_up_out: Sequence[str] = ()) -> float:
        """The bot's gain from a trade less the partner's (weighted): `mine_out` hand positions and `face_up_out`
        face-up cards leave the bot, which sets aside beans `get`; the partner sets aside `partner_gets`."""
        p = state.players[seat]
        before = self._value(state, seat, p, look)
        q = Player(tuple(c for i, c in enumerate(p.hand) if i not in mine_out), p.fields, p.coins, p.set_aside,
                   p.bought_field)
        after = self._value(state, seat, q, look, extra=get, gone_face_up=face_up_out)
        other = state.players[partner]
        their_before = self._value(state, partner, other, look, hand=False)
        their_after = self._value(state, partner, other, look, hand=False, extra=partner_gets,
                                  gone_face_up=partner_face_up_out)
        return (after - before) - self._partner_weight(state, seat, partner, look) * (their_after - their_before)

    def _answer_by_value(self, state: BohnanzaState, seat: int, legal: Sequence[Action],
                         look: Outlook) -> Action | None:
        p = state.players[seat]
        for offer in state.offers:
            if offer.receiver != seat:
                continue
            best: Action = RefuseOffer(seat, offer.id)
            best_gain = ACCEPT_MARGIN
            for a in legal:
                if not (isinstance(a, AcceptOffer) and a.offer == offer.id):
                    continue
                given = [bean_of(p.hand[i]) for i in a.give] + [bean_of(c) for c in offer.want_face_up]
                gain = self._gain(state, seat, offer.sender, look, a.give, offer.want_face_up,
                                  [bean_of(c) for c in offer.give], given,
                                  partner_face_up_out=[c for c in offer.give if c in state.face_up])
                if gain > best_gain:
                    best, best_gain = a, gain
            if isinstance(best, RefuseOffer) and COUNTERS:
                return self._counter_by_value(state, seat, offer, legal, look) or best
            return best
        return None

    def _counter_by_value(self, state: BohnanzaState, seat: int, offer: Offer, legal: Sequence[Action],
                          look: Outlook) -> Action | None:
        """Instead of refusing: the counter-offer worth most to it that the sender would likely take."""
        if any(o.sender == seat for o in state.offers):
            return None
        p = state.players[seat]
        partner = state.players[offer.sender]
        best: Action | None = None
        best_gain = PROPOSE_MARGIN
        for a in legal:
            if not (isinstance(a, CounterOffer) and a.offer == offer.id):
                continue
            give_cards = tuple(p.hand[i] for i in a.give) + a.give_face_up
            if self._worth(partner, Offer(-1, seat, offer.sender, give_cards, a.want, a.want_face_up)) <= 0:
                continue
            get = [*a.want, *(bean_of(c) for c in a.want_face_up)]
            gain = self._gain(state, seat, offer.sender, look, a.give, a.give_face_up, get,
                              [bean_of(c) for c in give_cards], partner_face_up_out=a.want_face_up)
            if a.want:
                gain *= 0.5
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def _propose_by_value(self, state: BohnanzaState, seat: int, legal: Sequence[Action],
                          look: Outlook) -> Action | None:
        active = seat == state.active
        if state.offers_made >= (VALUE_ACTIVE_OFFERS if active else VALUE_OTHER_OFFERS):
            return None
        if any(o.sender == seat for o in state.offers):
            return None  # one offer at a time: the answer changes what is worth offering next
        p = state.players[seat]
        best: Action | None = None
        best_gain = PROPOSE_MARGIN
        for a in legal:
            if not isinstance(a, OfferTrade):
                continue
            partner = state.players[a.to]
            give_cards = tuple(p.hand[i] for i in a.give) + a.give_face_up
            terms = Offer(-1, seat, a.to, give_cards, a.want, a.want_face_up)
            if self._worth(partner, terms) <= 0:
                continue  # the partner would most likely refuse it
            get = [*a.want, *(bean_of(c) for c in a.want_face_up)]
            gain = self._gain(state, seat, a.to, look, a.give, a.give_face_up, get,
                              [bean_of(c) for c in give_cards], partner_face_up_out=a.want_face_up)
            if a.want:
                gain *= 0.5  # the partner may not hold the bean asked for
            if gain > best_gain:
                best, best_gain = a, gain
        return best
