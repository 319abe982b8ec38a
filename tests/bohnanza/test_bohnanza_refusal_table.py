"""Every refusal Bohnanza can give, reviewed as a whole: each says what rule stops the move and what the player
can do instead. A new refusal fails here until it is reviewed and added to the table."""

from __future__ import annotations

import re

from refusal_table import seats_by_number, unreviewed

REVIEWED = (
    "'{card}' is not a bean card: choose one of your cards",
    "'{card}' is not a Bohnanza card; enroll this tag first",
    'a correction of 0 coins changes nothing: add or take away at least one coin',
    'a field cannot hold fewer than 0 cards: set 0 to empty it',
    'a hand card may be discarded only after planting from the hand, before turning up: discard one next turn, after planting from your hand',  # noqa: E501
    'a hand correction adds a card or removes one, not {change}',
    'an offer gives or asks for at least one card: choose cards to give or to ask for',
    'cards taken from the real deck are revealed by the table: tap them on its reader',
    'discarding a card is a rule of the two-player game only: plant or trade your cards',
    'every trade involves the active player, {active}: make your offer to them',
    'face-up cards can only be asked of the active player: ask others for hand cards',
    'field {field} holds a single bean and another of your fields holds more, so it is protected: harvest that one',
    'field {field} holds {field_bean} beans; a {bean} bean needs an empty field or one of {bean} beans (harvest a field first)',  # noqa: E501
    'field {field} is empty: harvest a field that holds beans',
    'field {field} of {player} holds {count} {bean} cards already: nothing to correct; choose another count',
    'field {field} of {player} is empty already: nothing to correct; choose another field',
    'fields are bought during the game: wait until every hand is dealt',
    'no card is being dealt, turned up or drawn now',
    'no field of {player} fits {card}: harvest a field (or buy a third) first',
    'no more offers this turn: {limit} have been made (option offers_per_turn); accept, refuse or wait for the next turn',  # noqa: E501
    'no {bean} card is left in the deck: choose another bean',
    'offer {offer} asks for none of your hand cards and you chose {chosen}: accept it choosing none',
    'offer {offer} asks for {want} and you chose none: choose {want} from your hand',
    'offer {offer} asks for {want} and you chose {chosen}: choose {want} from your hand',
    'offer {offer} was made by {player}: only they withdraw it',
    'offer {offer} was made to {player}: only they answer it',
    'offers are made while the active player trades (step 2), after the two cards are turned up',
    'only the active player in the duel ends planting the turned-up cards: choose a move your phone shows',
    'only the active player may trade the face-up cards: offer cards from your hand',
    'only the active player turns up the cards, after planting from the hand: choose a move your phone shows',
    'only the active player, {active}, discards; wait for your turn',
    'only the active player, {active}, ends trading',
    'only the front card of your hand may be planted, and {card} is not it: plant the front card',
    'only the host corrects coins: ask the host',
    'only the host corrects fields: ask the host',
    'only the host corrects hands: ask the host',
    'only {available} more {bean} cards are on the discard pile and in the deck, not {count}: add at most {available}',
    'only {count} cards are left on the discard pile and in the deck to turn into coins, not {delta}: add at most {count}',  # noqa: E501
    'option offers_per_turn is 0 (no limit) or more',
    'option trade_seconds is 0 (no limit) or more',
    'plant the front card of your hand first',
    'the game is over: the host can start a new one',
    'the host does not {action}; the players do',
    'the same face-up card is named twice: name each card once',
    'the same hand position is named twice: name each card once',
    'the table is still dealing: wait until every hand is dealt',
    'the table is still dealing; tap the dealt cards (undo a wrong tap) and correct the hand after the deal',
    'the table only reveals cards taken from the deck',
    'the third field costs {cost} coins and you have {coins}: harvest to earn coins first',
    'there are no {bean} beans in this game: ask for another bean',
    'there is no bean called {bean}: choose a bean of this game',
    'there is no field {field}: you have {count}',
    'there is no field {field}: your fields are 1 to {count}',
    'there is no open offer {offer}: it was answered or withdrawn',
    'there is no player {seat}: the players are 1 to {count}',
    'there is no trading in the two-player game',
    'this session deals digitally; bean cards are not tapped: play on your phone',
    'trading comes after {active} has turned up the cards (step 2); wait until then',
    'trading is over for this turn: {active} ended it; the next turn trades again',
    'trading is over for this turn; the next turn trades again',
    'trading opens once the two cards are turned up: plant from your hand, then turn them up',
    'with two players you harvest only on your own turn; wait for it',
    'with {count} players everyone starts with three fields and none can be bought',
    'without a trading time limit (option trade_seconds) only the active player ends it',
    'you already have a third field: harvest one to make room',
    'you cannot trade with yourself: offer to another player',
    'you discarded a card, so planting from your hand is over for this turn: turn up the cards',
    'you have discarded a card this turn already: one a turn; turn up the cards',
    'you have made this offer already (offer {offer}): wait for the answer, or withdraw it',
    'you have nothing to do now: no more offers this turn, {limit} have been made (option offers_per_turn); wait for the next turn',  # noqa: E501
    'you have nothing to do now: {active} is drawing; wait for your turn',
    'you have nothing to do now: {active} is planting from the hand; trading comes after the turn-up',
    'you have nothing to do now: {active} is planting the set-aside cards; wait for your turn',
    'you have nothing to do now: {active} is planting the turned-up cards; the rest come to you',
    'you have nothing to do now: {active} is taking the cards you left; wait',
    'you have nothing to do now: {active} is turning up cards; trading comes next',
    'you have nothing to plant now: trade, harvest, or wait for your next planting',
    'you have planted two cards from your hand; turn up the cards',
    'your hand has no {position}nd card: it holds {count}; choose one of those',
    'your hand has no {position}rd card: it holds {count}; choose one of those',
    'your hand has no {position}st card: it holds {count}; choose one of those',
    'your hand has no {position}th card: it holds {count}; choose one of those',
    'your hand is empty; turn up the cards',
    '{action} is not a Bohnanza action',
    '{bean} beans are not played with {count} players: choose a bean of this game',
    '{card} is not among the cards you set aside: plant one of those',
    '{card} is not among the cards your opponent left you: choose one of those',
    '{card} is not face up on the table: name one of the face-up cards',
    '{card} is not face up on the table: plant one of the face-up cards',
    '{card} is not in your hand: discard a card from your hand',
    '{card} is nowhere on this table: its bean is not played in this game; tap a card of this game',
    '{player} has no field {field}: only {count}; choose one of those',
    '{player} has no {bean} card in hand: remove a bean the hand holds',
    '{player} has only {count} coins, so {amount} cannot be taken away: take away at most {count}',
    '{player} holds only {count} cards: ask for fewer',
)


def test_every_bohnanza_refusal_is_in_the_reviewed_table():
    new, gone = unreviewed("bohnanza", REVIEWED)
    assert new == [], "new refusals: review them and add them to REVIEWED"
    assert gone == [], "refusals no longer raised: take them out of REVIEWED"


def test_no_refusal_names_a_seat_by_number():
    # Players are named through a {player} param (the clients show the name), never "seat 0" in the text.
    assert seats_by_number(REVIEWED) == []


def test_where_a_card_is_is_reviewed_too():
    # The refusals that say where a card is are built from a table of whole sentences (state.CARD_IS).
    from companion.games.bohnanza.state import CARD_IS

    sentences = {s for ending in CARD_IS.values() for s in ending.values()}
    assert all("{card}" in s for s in sentences)
    assert [s for s in sentences if re.search(r"\\bseats? \\d", s)] == []
