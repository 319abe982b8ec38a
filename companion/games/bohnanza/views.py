"""What each seat may see (the public table and a phone's private view), hints, and what stays hidden."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from companion.core import Seat
from companion.games.bohnanza.beans import BEANS, bean_of
from companion.games.bohnanza.deck import awaiting_table, receiver
from companion.games.bohnanza.harvest import buy_refusal, harvest_refusal, may_harvest_now, standings
from companion.games.bohnanza.state import BohnanzaState, Offer, Player, field_bean, fitting_fields
from companion.games.bohnanza.trading import describe


def _pays(bean: str | None, count: int) -> int:
    return BEANS[bean].coins(count) if bean else 0


def _field(field: tuple[str, ...]) -> dict[str, Any]:
    bean = field_bean(field)
    step = BEANS[bean].next_rung(len(field)) if bean else None
    return {
        "bean": bean,
        "count": len(field),
        "pays_now": _pays(bean, len(field)),
        "next": {"beans": step[0], "coins": step[1]} if step else None,
    }


def _cards(cards: tuple[str, ...]) -> list[dict[str, str]]:
    return [{"card": c, "bean": bean_of(c)} for c in cards]


def _offer(offer: Offer, face_up: tuple[str, ...]) -> dict[str, Any]:
    """An offer as everyone hears it: the beans of each side; face-up cards are named, hand cards are not."""
    gives, wants = describe(offer)
    return {
        "id": offer.id,
        "from": offer.sender,
        "to": offer.receiver,
        "give": list(gives),
        "give_face_up": [c for c in offer.give if c in face_up],
        "want": list(wants),
        "want_face_up": list(offer.want_face_up),
        "gift": not wants,
    }


def public_view(state: BohnanzaState, current: list[Seat]) -> dict[str, Any]:
    rules, count = state.rules, state.count
    players = []
    for seat, p in enumerate(state.players):
        players.append(
            {
                "seat": seat,
                "coins": len(p.coins),
                "hand_size": len(p.hand),
                "fields": [_field(f) for f in p.fields],
                "set_aside": _cards(p.set_aside),
                "bought_field": p.bought_field,
                "active": seat == state.active,
            }
        )
    offers = [_offer(o, state.face_up) for o in state.offers]
    out: dict[str, Any] = {
        "game": "bohnanza",
        "phase": state.step,
        "turn": state.turn,
        "active": state.active,
        "current_seats": current,
        "players": players,
        "face_up": _cards(state.face_up),
        "offers": offers,
        "offers_left": state.offers_left if state.step == "trade" else None,
        "planted_this_turn": state.planted,
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "discard_top": bean_of(state.discard[-1]) if state.discard else None,
        "out_of_game": len(state.removed),
        "exhaustions": state.exhaustions,
        "exhaustions_to_end": count.exhaustions_to_end,
        "last_turn": state.last_turn,
        "awaiting_table": _awaiting(state),
        "duel": count.duel,
        "turn_up": count.turn_up,
        "draw": count.draw,
        "third_field_cost": count.third_field_cost,
        "trade_seconds": rules.trade_seconds,
        "mode": "physical" if rules.physical else "digital",
        "over": state.over,
    }
    if state.over:
        out["scores"] = standings(state)
    return out


def _awaiting(state: BohnanzaState) -> dict[str, Any] | None:
    """What the table is to reveal now (physical mode): for which step, to whom, how many cards."""
    if not awaiting_table(state):
        return None
    return {"step": state.step, "seat": receiver(state), "remaining": state.to_reveal}


def must_plant(state: BohnanzaState, seat: int) -> tuple[str, ...]:
    """The cards this seat has to plant before its part of the turn is done."""
    p = state.players[seat]
    if seat == state.active and state.step == "plant" and state.planted == 0 and p.hand:
        return p.hand[:1]
    return p.set_aside


def private_view(state: BohnanzaState, seat: int, current: list[Seat],
                 public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The public view of `state` (`public` when it is made already: shared, so only copied at the top) with the
    seat's own part under "me"."""
    out = dict(public) if public is not None else public_view(state, current)
    p = state.players[seat]
    pending = [bean_of(c) for c in must_plant(state, seat)]
    fields = []
    for i, f in enumerate(p.fields):
        bean = field_bean(f)
        here = pending.count(bean) if bean else 0
        fields.append(
            {
                **_field(f),
                "pays_after": _pays(bean, len(f) + here),
                "must_plant_here": here,
                "harvestable": may_harvest_now(state, seat) and harvest_refusal(p, i) is None,
            }
        )
    mine = []
    for o in state.offers:
        if seat in (o.sender, o.receiver):
            view = _offer(o, state.face_up)
            if o.sender == seat:
                view["give_positions"] = [p.hand.index(c) for c in o.give if c in p.hand]
            mine.append(view)
    out["me"] = {
        "seat": seat,
        "hand": [{"position": i, "card": c, "bean": bean_of(c), "front": i == 0} for i, c in enumerate(p.hand)],
        "must_plant": _cards(must_plant(state, seat)),
        "fields": fields,
        "offers": mine,
        "can_buy_field": buy_refusal(state, seat) is None,
    }
    return out


def hints(state: BohnanzaState, seat: int) -> dict[str, Any]:
    """Advice for a phone: what I collect, what I could give away, and what to harvest if I must."""
    p = state.players[seat]
    collecting = sorted({bean for f in p.fields if (bean := field_bean(f))})
    pending = must_plant(state, seat)
    stuck = [c for c in pending if not fitting_fields(p, bean_of(c))]
    spare = [i for i, c in enumerate(p.hand) if i > 0 and bean_of(c) not in collecting]
    best = _best_harvest(p)
    return {
        "collecting": collecting,
        "wanted_face_up": [c for c in state.face_up if bean_of(c) in collecting],
        "spare_positions": spare,
        "must_harvest": bool(stuck),
        "best_harvest": best,
    }


def _best_harvest(p: Player) -> int | None:
    """The field that pays most now, fewest beans wasted on a tie; None when nothing may be harvested."""
    options = [i for i in range(len(p.fields)) if harvest_refusal(p, i) is None]
    if not options:
        return None

    def value(i: int) -> tuple[int, int]:
        f = p.fields[i]
        coins = _pays(field_bean(f), len(f))
        return coins, -(len(f) - coins)

    return max(options, key=value)


def indistinguishable(state: BohnanzaState, seat: Seat | None, rng: random.Random) -> BohnanzaState:
    """Other hands and the deck re-drawn; a hand card named in an open offer stays (its bean was announced)."""
    announced = {c for o in state.offers for c in o.give}
    pool = [c for s, p in enumerate(state.players) if s != seat for c in p.hand if c not in announced]
    pool += state.deck
    rng.shuffle(pool)
    cards = iter(pool)
    players = tuple(
        p if s == seat else dataclasses.replace(p, hand=tuple(c if c in announced else next(cards) for c in p.hand))
        for s, p in enumerate(state.players)
    )
    deck = list(cards)
    if state.rules.physical:
        deck.sort()
    return dataclasses.replace(state, players=players, deck=tuple(deck))
