"""Physical mode: what a tap of a tagged bean card means now, or where that card is when it means nothing."""

from __future__ import annotations

from companion.core import TABLE, Action, IllegalAction
from companion.games.bohnanza.actions import DrawBean, PlantBean
from companion.games.bohnanza.beans import BEAN_OF
from companion.games.bohnanza.deck import awaiting_table
from companion.games.bohnanza.planting import best_field, may_plant_from_hand
from companion.games.bohnanza.state import BohnanzaState, card_is


def tag_action(state: BohnanzaState, card: str) -> Action:
    """A card from the deck while the table reveals; otherwise the card to plant (front hand card, a face-up card in
    the duel, a set-aside card), into the field of its bean or else the first empty one."""
    if card not in BEAN_OF:
        raise IllegalAction("'{card}' is not a Bohnanza card; enroll this tag first", card=str(card))
    if not state.rules.physical:
        raise IllegalAction("this session deals digitally; bean cards are not tapped: play on your phone")
    if state.over:
        raise card_is(state, card, "over")
    if awaiting_table(state):
        if card in state.deck:
            return DrawBean(TABLE, card)
        raise card_is(state, card, "reveal")
    active = state.active
    hand = state.players[active].hand
    if may_plant_from_hand(state) and hand[0] == card:
        return PlantBean(active, card, best_field(state, active, card))
    if state.step in ("duel_offer", "duel_plant") and card in state.face_up:
        return PlantBean(active, card, best_field(state, active, card))
    if state.step == "plant_set_aside":
        for seat, p in enumerate(state.players):
            if card in p.set_aside:
                return PlantBean(seat, card, best_field(state, seat, card))
    raise card_is(state, card, "nothing")
