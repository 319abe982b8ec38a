"""Planting: the front hand cards (step 1), turning up the cards, and the set-aside cards (step 3)."""

from __future__ import annotations

import dataclasses

from companion.core import Action, IllegalAction, LogMessage, msg
from companion.games.bohnanza.actions import PlantBean, TurnUpCards
from companion.games.bohnanza.beans import BEAN_OF, bean_of, card_label
from companion.games.bohnanza.deck import advance
from companion.games.bohnanza.state import (
    BohnanzaState,
    check_field,
    check_seat,
    fitting_fields,
    plant_into,
    with_player,
)


def may_plant_from_hand(state: BohnanzaState) -> bool:
    p = state.players[state.active]
    return state.step == "plant" and bool(p.hand) and state.planted < 2 and not state.discarded


def may_turn_up(state: BohnanzaState) -> bool:
    """The first hand card must be planted (unless the hand is empty); the second is optional."""
    return state.step == "plant" and (state.planted >= 1 or not state.players[state.active].hand)


def apply_plant(state: BohnanzaState, action: PlantBean, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    if action.card not in BEAN_OF:
        raise IllegalAction("'{card}' is not a bean card: choose one of your cards", card=str(action.card))
    p = state.players[seat]
    bean = bean_of(action.card)
    active = seat == state.active
    if state.step == "plant" and active:
        if not p.hand:
            raise IllegalAction("your hand is empty; turn up the cards")
        if state.discarded:
            raise IllegalAction("you discarded a card, so planting from your hand is over for this turn: turn up "
                                "the cards")
        if state.planted >= 2:
            raise IllegalAction("you have planted two cards from your hand; turn up the cards")
        if action.card != p.hand[0]:
            raise IllegalAction(
                "only the front card of your hand may be planted, and {card} is not it: plant the front card",
                card=action.card
            ).english(card=card_label(action.card))
        check_field(p, bean, action.field)
        state = dataclasses.replace(state, planted=state.planted + 1)
        state = _take_from(state, seat, "hand", action.card)
    elif state.step in ("duel_offer", "duel_plant") and active:
        if action.card not in state.face_up:
            raise IllegalAction("{card} is not face up on the table: plant one of the face-up cards",
                                 card=action.card).english(card=card_label(action.card))
        check_field(p, bean, action.field)
        state = dataclasses.replace(state, face_up=tuple(c for c in state.face_up if c != action.card))
    elif state.step == "plant_set_aside" and p.set_aside:
        if action.card not in p.set_aside:
            raise IllegalAction("{card} is not among the cards you set aside: plant one of those",
                                card=action.card).english(card=card_label(action.card))
        check_field(p, bean, action.field)
        state = _take_from(state, seat, "set_aside", action.card)
    else:
        raise IllegalAction("you have nothing to plant now: trade, harvest, or wait for your next planting")
    state = plant_into(state, seat, action.card, action.field)
    field = state.players[seat].fields[action.field]
    log.append(
        msg("{player} planted a {bean} bean in field {field} ({count} there)", player=seat, bean=bean,
            field=action.field + 1, count=len(field))
    )
    if state.step == "duel_offer" and not state.face_up:
        state = dataclasses.replace(state, step="plant")
    return advance(state, log)


def _take_from(state: BohnanzaState, seat: int, place: str, card: str) -> BohnanzaState:
    cards = getattr(state.players[seat], place)
    index = cards.index(card)
    return with_player(state, seat, **{place: cards[:index] + cards[index + 1 :]})


def apply_turn_up(state: BohnanzaState, action: TurnUpCards, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    if seat != state.active or state.step != "plant":
        raise IllegalAction("only the active player turns up the cards, after planting from the hand: choose a move "
                            "your phone shows")
    if not may_turn_up(state):
        raise IllegalAction("plant the front card of your hand first")
    state = dataclasses.replace(state, step="turn_up", to_reveal=state.count.turn_up)
    return advance(state, log)


def plant_actions(state: BohnanzaState, seat: int) -> list[Action]:
    """The plantings open to a seat now, each card into each field that fits it."""
    p = state.players[seat]
    cards: tuple[str, ...] = ()
    if seat == state.active and state.step == "plant" and may_plant_from_hand(state):
        cards = p.hand[:1]
    elif seat == state.active and state.step in ("duel_offer", "duel_plant"):
        cards = state.face_up
    elif state.step == "plant_set_aside":
        cards = p.set_aside
    out: list[Action] = [PlantBean(seat, card, field) for card in cards for field in fitting_fields(p, bean_of(card))]
    if seat == state.active and may_turn_up(state):
        out.append(TurnUpCards(seat))
    return out


def best_field(state: BohnanzaState, seat: int, card: str) -> int:
    """Where a tapped card goes: the field of its bean, else the first empty one."""
    p = state.players[seat]
    bean = bean_of(card)
    fits = fitting_fields(p, bean)
    for i in fits:
        if p.fields[i]:
            return i
    if fits:
        return fits[0]
    raise IllegalAction(
        "no field of {player} fits {card}: harvest a field (or buy a third) first",
        player=seat,
        card=card,
    ).english(card=card_label(card))
