"""The host's corrections of fields and hands: every card moved to or from a pile, so all 154 stay accounted for."""

from __future__ import annotations

import bisect
import dataclasses
from typing import Any

from companion.core import HOST, IllegalAction, LogMessage, msg
from companion.games.bohnanza.actions import CorrectField, CorrectHand
from companion.games.bohnanza.beans import BEANS, bean_of, beans_in_play
from companion.games.bohnanza.state import BohnanzaState, check_seat, with_player
from companion.i18n import N_


def _check_bean(state: BohnanzaState, bean: str) -> None:
    if bean not in BEANS:
        raise IllegalAction("there is no bean called {bean}: choose a bean of this game", bean=bean)
    if bean not in beans_in_play(len(state.players)):
        raise IllegalAction(
            "{bean} beans are not played with {count} players: choose a bean of this game",
            bean=bean, count=len(state.players)
        )


def _take_from_deck(deck: tuple[str, ...], bean: str) -> tuple[tuple[str, ...], str | None]:
    """The deck without its lowest card of `bean` (digital: the one nearest the bottom; physical: any, the order
    is unknown), and that card; None when the deck holds none."""
    for i in range(len(deck) - 1, -1, -1):
        if bean_of(deck[i]) == bean:
            return deck[:i] + deck[i + 1 :], deck[i]
    return deck, None


def _into_deck(state: BohnanzaState, card: str) -> tuple[str, ...]:
    """A card put back into the deck: under it (digital), or among the unknown cards, kept sorted (physical)."""
    if state.rules.physical:
        deck = list(state.deck)
        bisect.insort(deck, card)
        return tuple(deck)
    return (*state.deck, card)


def after_deck_change(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    """A host correction that took the deck's last card exhausts it, as any draw would."""
    if not state.deck and state.step not in ("deal", "over"):
        # The correction took the deck's last card: that is an exhaustion like any other.
        from companion.games.bohnanza.deck import advance, exhaust  # here: the deck module imports the rules

        state = advance(exhaust(state, log), log)
    return state


def apply_correct_field(state: BohnanzaState, action: CorrectField, log: list[LogMessage]) -> BohnanzaState:
    if action.seat != HOST:
        raise IllegalAction("only the host corrects fields: ask the host")
    seat = check_seat(state, action.player)
    p = state.players[seat]
    if not 0 <= action.field < len(p.fields):
        raise IllegalAction("{player} has no field {field}: only {count}; choose one of those", player=seat,
                            field=action.field + 1, count=len(p.fields))
    if action.count < 0:
        raise IllegalAction("a field cannot hold fewer than 0 cards: set 0 to empty it")
    held = p.fields[action.field]
    if action.count == 0:
        if not held:
            raise IllegalAction(
                "field {field} of {player} is empty already: nothing to correct; choose another field",
                field=action.field + 1, player=seat
            )
        keep: tuple[str, ...] = ()
    else:
        _check_bean(state, action.bean)
        if held and bean_of(held[0]) == action.bean:
            if len(held) == action.count:
                raise IllegalAction("field {field} of {player} holds {count} {bean} cards already: nothing to "
                                    "correct; choose another count",
                                    field=action.field + 1, player=seat, count=action.count, bean=action.bean)
            keep = held[: action.count]
        else:
            keep = ()
    off = held[len(keep) :]
    discard = (*state.discard, *off)
    deck = state.deck
    added: list[str] = []
    missing = action.count - len(keep)
    # Cards of the bean come from the discard pile first (its top first): that is where a wrongly harvested or
    # wrongly planted card usually went; what it lacks comes from the deck.
    for i in range(len(discard) - 1, -1, -1):
        if len(added) == missing:
            break
        if bean_of(discard[i]) == action.bean:
            added.append(discard[i])
    discard = tuple(c for c in discard if c not in added)
    while len(added) < missing:
        deck, card = _take_from_deck(deck, action.bean)
        if card is None:
            raise IllegalAction("only {available} more {bean} cards are on the discard pile and in the deck, not "
                                "{count}: add at most {available}", available=len(added), bean=action.bean,
                                count=missing)
        added.append(card)
    fields = list(p.fields)
    fields[action.field] = (*keep, *added)
    state = dataclasses.replace(state, discard=discard, deck=deck)
    state = with_player(state, seat, fields=tuple(fields))
    if action.count == 0:
        log.append(msg("The host emptied field {field} of {player}", field=action.field + 1, player=seat))
    else:
        log.append(msg("The host set field {field} of {player} to {bean} × {count}", field=action.field + 1,
                       player=seat, bean=action.bean, count=action.count))
    return after_deck_change(state, log)


def apply_correct_hand(state: BohnanzaState, action: CorrectHand, log: list[LogMessage]) -> BohnanzaState:
    if action.seat != HOST:
        raise IllegalAction("only the host corrects hands: ask the host")
    seat = check_seat(state, action.player)
    if state.step == "deal":
        raise IllegalAction("the table is still dealing; tap the dealt cards (undo a wrong tap) and correct the "
                            "hand after the deal")
    _check_bean(state, action.bean)
    p = state.players[seat]
    if action.change == "add":
        deck, card = _take_from_deck(state.deck, action.bean)
        if card is None:
            raise IllegalAction("no {bean} card is left in the deck: choose another bean", bean=action.bean)
        state = dataclasses.replace(state, deck=deck)
        state = with_player(state, seat, hand=(*p.hand, card))
        # Which bean it was stays with the player (and the host who chose it); the table learns the hand's size.
        log.append(msg("The host put a {bean} card from the deck at the back of {player}'s hand",
                       visible_to=(seat,), bean=action.bean, player=seat))
    elif action.change == "remove":
        at = next((i for i in range(len(p.hand) - 1, -1, -1) if bean_of(p.hand[i]) == action.bean), None)
        if at is None:
            raise IllegalAction(
                "{player} has no {bean} card in hand: remove a bean the hand holds",
                player=seat, bean=action.bean
            )
        card = p.hand[at]
        state = with_player(state, seat, hand=p.hand[:at] + p.hand[at + 1 :])
        state = dataclasses.replace(state, deck=_into_deck(state, card))
        log.append(msg("The host put a {bean} card from {player}'s hand back into the deck",
                       visible_to=(seat,), bean=action.bean, player=seat))
    else:
        raise IllegalAction("a hand correction adds a card or removes one, not {change}", change=str(action.change))
    log.append(msg("The host corrected the hand of {player}: {count} cards now", player=seat,
                   count=len(state.players[seat].hand)))
    return after_deck_change(state, log)


def correction_forms(state: BohnanzaState) -> dict[str, dict[str, Any]]:
    """The host page's forms for these corrections: every field a list to choose from, built from the table now.

    Nothing here names a hand card: the hand form offers every bean, not the beans a hand holds.
    """
    players = [{"value": s, "seat": s, "label": ""} for s in range(len(state.players))]
    in_play = beans_in_play(len(state.players))
    beans = [{"value": b, "label": {"template": "{bean}", "params": {"bean": b}}} for b in in_play]
    fields = []
    for s, p in enumerate(state.players):
        for i, f in enumerate(p.fields):
            if f:
                label = {"template": N_("{player}, field {field}: {bean} × {count}"),
                         "params": {"player": s, "field": i + 1, "bean": bean_of(f[0]), "count": len(f)}}
            else:
                label = {"template": N_("{player}, field {field}: empty"), "params": {"player": s, "field": i + 1}}
            fields.append({"value": {"player": s, "field": i}, "label": label})
    most = max(BEANS[b].count for b in in_play)
    return {
        "correct_field": {
            "title": N_("Correct a bean field"),
            "fields": [
                {"name": "", "label": N_("Field"), "choices": fields},
                {"name": "bean", "label": N_("Bean"), "choices": beans},
                {"name": "count", "label": N_("Cards"), "min": 0, "max": most, "signed": False},
            ],
        },
        "correct_hand": {
            "title": N_("Correct a hand"),
            "fields": [
                {"name": "player", "label": N_("Player"), "choices": players},
                {"name": "bean", "label": N_("Bean"), "choices": beans},
                # Last, so it has a row to itself on the page: its words are the longest.
                {"name": "change", "label": N_("Change"), "choices": [
                    {"value": "add", "label": N_("Add a card from the deck")},
                    {"value": "remove", "label": N_("Put a card back into the deck")},
                ]},
            ],
        },
    }
