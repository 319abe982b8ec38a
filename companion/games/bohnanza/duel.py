"""The two-player duel (Rio Grande rules): discarding, the cards left to the opponent, no trading."""

from __future__ import annotations

import dataclasses

from companion.core import Action, IllegalAction, LogMessage, msg
from companion.games.bohnanza.actions import DiscardBean, EndPlanting
from companion.games.bohnanza.beans import BEAN_OF, bean_of, card_label
from companion.games.bohnanza.deck import advance, end_game
from companion.games.bohnanza.state import BohnanzaState, check_seat, with_player


def may_discard_from_hand(state: BohnanzaState) -> bool:
    """Once a turn, after planting from the hand (the first card is a must) and before turning up."""
    hand = state.players[state.active].hand
    return state.step == "plant" and bool(hand) and state.planted >= 1 and not state.discarded


def apply_discard(state: BohnanzaState, action: DiscardBean, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    if not state.count.duel:
        raise IllegalAction("discarding a card is a rule of the two-player game only: plant or trade your cards")
    if seat != state.active:
        raise IllegalAction("only the active player, {active}, discards; wait for your turn", active=state.active)
    if action.card not in BEAN_OF:
        raise IllegalAction("'{card}' is not a bean card: choose one of your cards", card=str(action.card))
    if state.step == "duel_offer":
        if action.card not in state.face_up:
            raise IllegalAction(
                "{card} is not among the cards your opponent left you: choose one of those",
                card=action.card
            ).english(card=card_label(action.card))
        state = dataclasses.replace(
            state, face_up=tuple(c for c in state.face_up if c != action.card), discard=(*state.discard, action.card)
        )
        log.append(msg("{player} discarded a {bean} bean left by the opponent", player=seat,
                       bean=bean_of(action.card)))
        if not state.face_up:
            state = dataclasses.replace(state, step="plant")
        return state
    if state.step != "plant":
        raise IllegalAction("a hand card may be discarded only after planting from the hand, before turning up: "
                            "discard one next turn, after planting from your hand")
    hand = state.players[seat].hand
    if action.card not in hand:
        raise IllegalAction("{card} is not in your hand: discard a card from your hand",
                            card=action.card).english(card=card_label(action.card))
    if state.discarded:
        raise IllegalAction("you have discarded a card this turn already: one a turn; turn up the cards")
    if state.planted < 1:
        raise IllegalAction("plant the front card of your hand first")
    state = with_player(state, seat, hand=tuple(c for c in hand if c != action.card))
    state = dataclasses.replace(state, discard=(*state.discard, action.card), discarded=True)
    log.append(msg("{player} discarded a {bean} bean from the hand", player=seat, bean=bean_of(action.card)))
    return state


def apply_end_planting(state: BohnanzaState, action: EndPlanting, log: list[LogMessage]) -> BohnanzaState:
    seat = check_seat(state, action.seat)
    if seat != state.active or state.step != "duel_plant":
        raise IllegalAction("only the active player in the duel ends planting the turned-up cards: choose a move your "
                            "phone shows")
    left = tuple(bean_of(c) for c in state.face_up)
    log.append(msg("{player} left {beans} to the opponent", player=seat, beans=left))
    if state.last_turn:
        return end_game(state, log)
    state = dataclasses.replace(state, step="draw", to_reveal=state.count.draw)
    return advance(state, log)


def duel_actions(state: BohnanzaState, seat: int) -> list[Action]:
    if seat != state.active:
        return []
    if state.step == "duel_offer":
        return [DiscardBean(seat, c) for c in state.face_up]
    if state.step == "duel_plant":
        return [EndPlanting(seat)]
    if may_discard_from_hand(state):
        return [DiscardBean(seat, c) for c in state.players[seat].hand]
    return []
