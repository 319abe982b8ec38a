"""The draw deck: dealing, turning up, drawing, deck exhaustion and reshuffles, the turn change and the end."""

from __future__ import annotations

import dataclasses
import random

from companion.core import IllegalAction, LogMessage, chance_rng, msg
from companion.games.bohnanza.actions import DrawBean
from companion.games.bohnanza.beans import BEAN_OF, CARDS, PLAYER_COUNTS, bean_of, cards_in_play
from companion.games.bohnanza.harvest import harvest_field, standings
from companion.games.bohnanza.state import BohnanzaState, Player, Rules, card_is, with_player

REVEAL_STEPS = ("deal", "turn_up", "draw")


def new_table(players: int, rules: Rules, rng: random.Random) -> BohnanzaState:
    """The table before the first turn: digital mode shuffles and deals; physical mode waits for the deal."""
    count = PLAYER_COUNTS[players]
    cards = cards_in_play(players)
    in_play = set(cards)
    removed = tuple(c for c in CARDS if c not in in_play)
    fields = count.fields + (1 if count.duel and rules.duel_third_field_start else 0)
    empty = Player(hand=(), fields=((),) * fields, coins=(), set_aside=(), bought_field=False)
    deck = sorted(cards)
    if not rules.physical:
        rng.shuffle(deck)
    state = BohnanzaState(
        players=(empty,) * players,
        deck=tuple(deck),
        discard=(),
        removed=removed,
        face_up=(),
        offers=(),
        active=0,
        step="deal",
        turn=0,
        planted=0,
        discarded=False,
        to_reveal=sum(count.hands),
        offers_made=0,
        next_offer=1,
        exhaustions=0,
        last_turn=False,
        seed=rng.getrandbits(62),
        rules=rules,
    )
    return advance(state, [])


def dealing_seat(state: BohnanzaState) -> int:
    """Cards are dealt a whole hand at a time, seat 0 first, so the table can tap each hand front to back."""
    for seat, size in enumerate(state.count.hands):
        if len(state.players[seat].hand) < size:
            return seat
    raise AssertionError("every hand is dealt")


def receiver(state: BohnanzaState) -> int:
    """Who gets the card the table reveals now."""
    return dealing_seat(state) if state.step == "deal" else state.active


def awaiting_table(state: BohnanzaState) -> bool:
    return state.rules.physical and state.step in REVEAL_STEPS and state.to_reveal > 0


def reveal(state: BohnanzaState, card: str, log: list[LogMessage]) -> BohnanzaState:
    """A card leaves the deck: the top one (digital) or the one the table revealed (physical).

    The deck is exhausted the moment its last card is taken: the discard pile is reshuffled at once, or the
    game heads for its end.
    """
    deck = state.deck[1:] if state.deck[0] == card else tuple(c for c in state.deck if c != card)
    state = dataclasses.replace(state, deck=deck, to_reveal=state.to_reveal - 1)
    bean = bean_of(card)
    if state.step == "turn_up":
        log.append(msg("{player} turned up a {bean} bean", player=state.active, bean=bean))
        state = dataclasses.replace(state, face_up=(*state.face_up, card))
    else:
        seat = receiver(state)
        state = with_player(state, seat, hand=(*state.players[seat].hand, card))
        if state.step == "deal":
            log.append(msg("{player} was dealt a card", player=seat))
            log.append(msg("{player} was dealt a {bean} bean", visible_to=(seat,), player=seat, bean=bean))
        else:
            log.append(msg("{player} drew a card", player=seat))
            log.append(msg("{player} drew a {bean} bean", visible_to=(seat,), player=seat, bean=bean))
    return state if state.deck or state.step == "deal" else exhaust(state, log)


def advance(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    """Carry the turn on through everything that needs no decision: digital reveals, exhaustions, step changes."""
    while True:
        step = state.step
        if step in REVEAL_STEPS and state.to_reveal > 0:
            if not state.deck:
                # No card left to take (the last exhaustion already counted): the game heads for its end.
                state = _final(state, log)
            elif state.rules.physical:
                return state
            else:
                state = reveal(state, state.deck[0], log)
            continue
        if step == "deal":
            return dataclasses.replace(state, step="plant", turn=1, active=0)
        if step == "turn_up":
            if state.count.duel:
                return dataclasses.replace(_add_matching_discards(state, log), step="duel_plant")
            return dataclasses.replace(state, step="trade")
        if step == "draw":
            return next_turn(state, log)
        if step == "plant_set_aside" and not any(p.set_aside for p in state.players):
            if state.last_turn:
                return end_game(state, log)
            state = dataclasses.replace(state, step="draw", to_reveal=state.count.draw)
            continue
        return state


def exhaust(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    """The deck's last card was just taken: count the exhaustion, then reshuffle the discard pile into a new deck,
    or, at the last exhaustion or with an empty discard pile (no card could ever be drawn), end the game."""
    count = state.exhaustions + 1
    limit = state.count.exhaustions_to_end
    log.append(msg("The draw deck ran out ({count} of {limit})", count=count, limit=limit))
    state = dataclasses.replace(state, exhaustions=count)
    if count >= limit:
        return _final(state, log)
    if not state.discard:
        log.append(msg("The discard pile is empty, so no new draw deck can be made: the game ends"))
        return _final(state, log)
    deck = list(state.discard)
    if state.rules.physical:
        deck.sort()
    else:
        chance_rng(state.seed, "reshuffle", count).shuffle(deck)
    log.append(msg("The discard pile was shuffled into a new draw deck of {size} cards", size=len(deck)))
    return dataclasses.replace(state, deck=tuple(deck), discard=())


def _final(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    """The end: at once while drawing; otherwise the active player finishes step 3 with what was turned up."""
    if state.step == "draw":
        return end_game(state, log)
    return dataclasses.replace(state, to_reveal=0, last_turn=True)


def _add_matching_discards(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    """Two players: while the top discard matches a turned-up card, it joins them."""
    beans = {bean_of(c) for c in state.face_up}
    discard, face_up = state.discard, state.face_up
    while discard and bean_of(discard[-1]) in beans:
        log.append(msg("{player} added a {bean} bean from the discard pile", player=state.active,
                       bean=bean_of(discard[-1])))
        face_up = (*face_up, discard[-1])
        discard = discard[:-1]
    return dataclasses.replace(state, discard=discard, face_up=face_up)


def next_turn(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    active = (state.active + 1) % len(state.players)
    # In the duel the cards left face up are the new active player's to plant or discard first.
    step = "duel_offer" if state.count.duel and state.face_up else "plant"
    log.append(msg("{player}'s turn began", player=active))
    return dataclasses.replace(
        state,
        active=active,
        step=step,
        turn=state.turn + 1,
        planted=0,
        discarded=False,
        to_reveal=0,
        offers=(),
        offers_made=0,
    )


def end_game(state: BohnanzaState, log: list[LogMessage]) -> BohnanzaState:
    """Hands score nothing; every field is harvested, the single-bean rule no longer applies."""
    log.append(msg("The game ended; every field is harvested"))
    for seat, p in enumerate(state.players):
        for field in range(len(p.fields)):
            if state.players[seat].fields[field]:
                state = harvest_field(state, seat, field, log)
    state = dataclasses.replace(state, step="over", to_reveal=0, offers=())
    result = standings(state)
    for seat in result["winners"]:
        log.append(msg("{player} won with {count} coins", player=seat, count=result["scores"][seat]))
    return state


def apply_draw_bean(state: BohnanzaState, action: DrawBean, log: list[LogMessage]) -> BohnanzaState:
    """TABLE: the real card just dealt, turned up or drawn; any card still in the deck may be the one."""
    card = action.card
    if not awaiting_table(state):
        raise IllegalAction("no card is being dealt, turned up or drawn now")
    if card not in BEAN_OF:
        raise IllegalAction("'{card}' is not a Bohnanza card; enroll this tag first", card=str(card))
    if card not in state.deck:
        raise card_is(state, card, "not_in_deck")
    return advance(reveal(state, card, log), log)
