"""Bohnanza at the controller: tap each card taken from the deck, the seat button plants, held it moves the turn on."""

from __future__ import annotations

from companion.core.actions import Action
from companion.core.errors import IllegalAction, NotYourTurn
from companion.games.bohnanza.actions import (
    BuyField,
    DiscardBean,
    DrawBean,
    EndPlanting,
    EndTrading,
    Harvest,
    PlantBean,
    TurnUpCards,
)
from companion.games.bohnanza.beans import bean_of
from companion.games.bohnanza.deck import awaiting_table
from companion.games.bohnanza.planting import best_field, may_plant_from_hand
from companion.games.bohnanza.state import BohnanzaState, fitting_fields
from companion.play.router import Binding, Context, Decision, Note, Press, key_press, seat_press, tap

BINDINGS: tuple[Binding, ...] = (
    Binding("deal, turning up, drawing (physical deck)", "tap each card taken from the deck",
            "reveals it (`draw_bean`); the deal goes player by player from the first player (seat 1), "
            "front card first"),
    Binding("plant", "active seat button (again for the second card)",
            "plants the front card of the hand into the field of its bean, else the first empty one"),
    Binding("plant (physical deck)", "tap the front hand card", "plants it the same way"),
    Binding("plant", "active seat button held", "turns up the cards: planting from the hand is over"),
    Binding("trade", "active seat button held", "ends trading (offers themselves are made on the phones)"),
    Binding("plant the set-aside cards", "a seat's button, or a tap of one of its set-aside cards",
            "plants its next set-aside card (the tapped one) into its field"),
    Binding("duel: cards the opponent left", "active seat button", "plants the first of them that fits a field"),
    Binding("duel: cards the opponent left", "active seat button held", "discards the first of them"),
    Binding("duel: planting the turned-up cards", "active seat button, or a tap of a face-up card",
            "plants the first one that fits (the tapped one)"),
    Binding("duel: planting the turned-up cards", "active seat button held",
            "ends planting: the rest are left to the opponent"),
    Binding("any time (duel: own turn)", "keys 1, 2, 3",
            "harvests field 1, 2 or 3 of the seat whose button was pressed in the last 10 s, else of the active "
            "player"),
    Binding("any time", "key 9", "that seat buys the third field"),
    Binding("any time", "another seat's button", "chooses that seat for the keys (nothing else happens)"),
    Binding("any time", "BACK", "forgets the chosen seat"),
)


def interpret(ctx: Context, press: Press) -> Decision:
    state: BohnanzaState = ctx.state
    if press.source == "tag":
        assert press.card is not None
        return ctx.act(ctx.game.tag_action(state, press.card))
    if awaiting_table(state) and not (press.source == "key" and press.digit in (1, 2, 3, 9)):
        raise IllegalAction("tap the card taken from the deck first")
    if press.source == "key":
        return _key(ctx, state, press)
    seat = press.seat
    assert seat is not None
    ctx.set_focus(seat)
    step = state.step
    if step == "deal":
        raise IllegalAction("the table is still dealing")
    if seat == state.active:
        if step == "plant":
            if press.gesture == "long":
                return ctx.act(TurnUpCards(seat))
            if not may_plant_from_hand(state):
                raise IllegalAction("planting from the hand is over: hold your seat button to turn up the cards")
            return _plant(ctx, state, seat, state.players[seat].hand[0], "the front card of the hand")
        if step == "trade":
            if press.gesture == "long":
                return ctx.act(EndTrading(seat))
            return Note("trade on the phones; hold the seat button to end trading", seat)
        if step in ("duel_offer", "duel_plant"):
            if press.gesture == "long":
                if step == "duel_plant":
                    return ctx.act(EndPlanting(seat))
                return ctx.act(DiscardBean(seat, state.face_up[0]))
            fits = [c for c in state.face_up if fitting_fields(state.players[seat], bean_of(c))]
            if not fits:
                raise IllegalAction("none of the face-up cards fits a field: harvest one first (keys 1–3)")
            return ctx.act(PlantBean(seat, fits[0], best_field(state, seat, fits[0])))
    if step == "plant_set_aside" and state.players[seat].set_aside and press.gesture != "long":
        return _plant(ctx, state, seat, state.players[seat].set_aside[0], "its next set-aside card")
    if press.gesture == "long" and seat != state.active:
        raise NotYourTurn("{player} is the active player", player=state.active)
    return Note("chosen: keys 1–3 harvest a field, 9 buys the third field", seat)


def _plant(ctx: Context, state: BohnanzaState, seat: int, card: str, what: str) -> Decision:
    # The card is still secret until it is planted: a refusal must not name it.
    fields = fitting_fields(state.players[seat], bean_of(card))
    if not fields:
        raise IllegalAction(
            "the front card of the hand fits no field of {player}: harvest one first (keys 1–3) or buy a third "
            "(key 9)" if what == "the front card of the hand" else
            "its next set-aside card fits no field of {player}: harvest one first (keys 1–3) or buy a third (key 9)",
            player=seat,
        ).worded(f"{what} fits no field of seat {seat + 1}: harvest one first (keys 1–3) or buy a third (key 9)")
    return ctx.checked(PlantBean(seat, card, best_field(state, seat, card)))


def _key(ctx: Context, state: BohnanzaState, press: Press) -> Decision:
    if press.is_key("back"):
        ctx.memory.focus = None
        return Note("the keys act for the active player again")
    digit = press.digit
    seat = ctx.focused(state.active)
    if digit in (1, 2, 3):
        return ctx.act(Harvest(seat, digit - 1))
    if digit == 9:
        return ctx.act(BuyField(seat))
    raise IllegalAction("keys 1–3 harvest a field and 9 buys the third field; nothing else is keyed in Bohnanza")


def candidates(ctx: Context, action: Action) -> list[list[Press]]:
    seat = action.seat
    if isinstance(action, DrawBean):
        return [[tap(action.card)]]
    if not isinstance(seat, int):
        return []  # the host's moves (ending trading when time is up, corrections) are on the host page
    if isinstance(action, PlantBean):
        return [[seat_press(seat)], [tap(action.card)]]
    if isinstance(action, TurnUpCards | EndTrading | EndPlanting | DiscardBean):
        return [[seat_press(seat, "long")]]
    if isinstance(action, Harvest | BuyField):
        key = key_press("9" if isinstance(action, BuyField) else str(action.field + 1))
        return [[key], [seat_press(seat), key], [key_press("back"), key]]
    return []
