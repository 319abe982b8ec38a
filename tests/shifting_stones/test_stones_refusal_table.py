"""Every refusal Shifting Stones can give, reviewed as a whole: each says what rule stops the move and what the player
can do instead. A new refusal fails here until it is reviewed and added to the table."""

from __future__ import annotations

from refusal_table import seats_by_number, unreviewed

REVIEWED = (
    "'{card}' is not a Shifting Stones card: enroll this tag first",
    "'{face}' is not a stone face (faces: sun, moon, fish, bird, horse, boat, seed, tree)",
    'a correction is at most {limit} points either way: make a bigger one in steps',
    'a correction of 0 points changes nothing: add or take away at least 1 point',
    'a grid has {stones} stones and {count} were entered: enter all {stones}, row by row from the top left',
    'a shift swaps two different stones: choose two side by side, or flip one stone',
    "it is {player}'s turn; yours comes in seat order",
    'no card is being drawn now and the grid is set: the table waits for the next end of a turn',
    'no card is being drawn now: tap a card only when the table draws one',
    'no card scores before the starting grid is set: enter the grid first',
    'only the host makes corrections: ask the host',
    'pattern {card} ({pattern}) cannot be the card drawn: it is already scored by {player}; tap the card just drawn',
    'pattern {card} ({pattern}) cannot be the card drawn: it is already scored; tap the card just drawn',
    'pattern {card} ({pattern}) cannot be the card drawn: it is in the discard pile; tap the card just drawn',
    "pattern {card} ({pattern}) cannot be the card drawn: it is in {player}'s hand; tap the card just drawn",
    'pattern {card} ({pattern}) cannot be the card drawn: it is not drawn yet; tap the card just drawn',
    'pattern {card} ({pattern}) does not match the grid now: shift or flip stones first',
    'pattern {card} ({pattern}) does not match the grid: shift or flip stones first',
    'pattern {card} ({pattern}) is already scored by {player}: tap a card of the hand whose turn it is',
    'pattern {card} ({pattern}) is already scored: tap a card of the hand whose turn it is',
    'pattern {card} ({pattern}) is in the deck: it scores once it is drawn',
    'pattern {card} ({pattern}) is in the discard pile: tap a card of the hand whose turn it is',
    "pattern {card} ({pattern}) is in {player}'s hand: tap a card of the hand whose turn it is",
    'pattern {card} ({pattern}) is not drawn yet: it scores once it is drawn',
    "pattern {card} ({pattern}) is not in this game's deck: put it aside",
    'the game is over: the host can start a new one',
    "the host only corrects the score or the grid; {action} is a player's move",
    'the starting grid is already set; the host can correct it',
    'the stones are 1 sun/moon, 2 fish/bird, 3 horse/boat, 3 seed/tree; this grid has {count} {stone}: check the stones and enter them again',  # noqa: E501
    "the table enters the grid and the cards drawn; {action} is a player's move",
    'the table is drawing a card for {player}: the game goes on once it is tapped',
    'the table is still setting up: the dealt cards come first; then the game starts',
    'the table is still setting up: the starting grid and the dealt cards come first; then the game starts',
    'the table is still setting up: the starting grid comes first; then the game starts',
    'the {first} and {second} stones are not side by side: a shift swaps two stones next to each other in a row or a column',  # noqa: E501
    "there is no pattern card '{card}': tap the card just drawn",
    "there is no pattern card '{card}': use a card of your hand",
    'there is no player {number}: players are 1 to {players}',
    'there is no stone {cell}: the stones are 1 (top left) to 9 (bottom right), row by row',
    'you have already acted this turn and a skip replaces every action: end the turn instead',
    'you skipped your last turn and never two skips in a row: make a move or end the turn',
    "{action} is the table's to enter, not a player's",
    '{card} cannot come from the deck: all {total} of its {points}-point cards have been seen; tap the card just drawn',
    '{card} cannot come from the deck: it is already scored by {player}; tap the card just drawn',
    '{card} cannot come from the deck: it is already scored; tap the card just drawn',
    '{card} cannot come from the deck: it is in the discard pile; tap the card just drawn',
    "{card} cannot come from the deck: it is in {player}'s hand; tap the card just drawn",
    '{card} is not in your hand: it is already scored by {player}; use a card of your hand',
    '{card} is not in your hand: it is already scored; use a card of your hand',
    '{card} is not in your hand: it is in the discard pile; use a card of your hand',
    '{card} is not in your hand: use a card of your hand, or skip',
    '{player} has {points} points and a score cannot go below 0: take away at most {points}',
)


def test_every_shifting_stones_refusal_is_in_the_reviewed_table():
    new, gone = unreviewed("shifting_stones", REVIEWED)
    assert new == [], "new refusals: review them and add them to REVIEWED"
    assert gone == [], "refusals no longer raised: take them out of REVIEWED"


def test_no_refusal_names_a_seat_by_number():
    # Players are named through a {player} param (the clients show the name), never "seat 0" in the text.
    assert seats_by_number(REVIEWED) == []
