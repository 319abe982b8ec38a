"""Every refusal Shifting Stones can give, reviewed as a whole: each says what rule stops the move and what the player
can do instead. A new refusal fails here until it is reviewed and added to the table."""

from __future__ import annotations

import re

from refusal_table import refusal_templates

REVIEWED = (
    "'{card}' is not a Shifting Stones card: enroll this tag first",
    "'{face}' is not a stone face (faces: sun, moon, fish, bird, horse, boat, seed, tree)",
    'a correction is at most {limit} points either way',
    'a correction of 0 points changes nothing',
    'a grid has {stones} stones, top left to bottom right; got {count}',
    'a shift swaps two different stones',
    'enter the starting grid first',
    "it is {player}'s turn",
    'no card is being drawn now',
    'no card is being drawn now and the grid is set',
    'only the host makes corrections',
    'pattern {card} ({pattern}) cannot be the card drawn: it is already scored',
    'pattern {card} ({pattern}) cannot be the card drawn: it is already scored by {player}',
    'pattern {card} ({pattern}) cannot be the card drawn: it is in the discard pile',
    "pattern {card} ({pattern}) cannot be the card drawn: it is in {player}'s hand",
    'pattern {card} ({pattern}) cannot be the card drawn: it is not drawn yet',
    'pattern {card} ({pattern}) does not match the grid',
    'pattern {card} ({pattern}) does not match the grid now',
    'pattern {card} ({pattern}) is already scored',
    'pattern {card} ({pattern}) is already scored by {player}',
    'pattern {card} ({pattern}) is in the deck',
    'pattern {card} ({pattern}) is in the discard pile',
    "pattern {card} ({pattern}) is in {player}'s hand",
    'pattern {card} ({pattern}) is not drawn yet',
    "pattern {card} ({pattern}) is not in this game's deck",
    'the game is over',
    'the host only corrects the score or the grid, not {action}',
    'the starting grid is already set; the host can correct it',
    'the stones are 1 sun/moon, 2 fish/bird, 3 horse/boat, 3 seed/tree; this grid has {count} {stone}',
    "the table enters the grid and the cards drawn; {action} is a player's move",
    'the table is drawing a card for {player}',
    'the table is still setting up: waiting for the dealt cards',
    'the table is still setting up: waiting for the starting grid',
    'the table is still setting up: waiting for the starting grid and the dealt cards',
    'the {first} and {second} stones are not side by side: a shift swaps two stones next to each other in a row or a column',  # noqa: E501
    'there is no cell {cell}: cells are 0 (top left) to 8 (bottom right), row by row',
    "there is no pattern card '{card}'",
    'there is no seat {number}',
    'you have already acted this turn: a skip replaces every action',
    'you skipped your last turn: never two skips in a row',
    "{action} is the table's to enter, not a player's",
    '{card} cannot come from the deck: all {total} of its {points}-point cards have been seen',
    '{card} cannot come from the deck: it is already scored',
    '{card} cannot come from the deck: it is already scored by {player}',
    '{card} cannot come from the deck: it is in the discard pile',
    "{card} cannot come from the deck: it is in {player}'s hand",
    '{card} is not in your hand',
    '{card} is not in your hand: it is already scored',
    '{card} is not in your hand: it is already scored by {player}',
    '{card} is not in your hand: it is in the discard pile',
    '{player} has {points} points; a score cannot go below 0',
)


def test_every_shifting_stones_refusal_is_in_the_reviewed_table():
    found = refusal_templates("shifting_stones")
    assert sorted(found - set(REVIEWED)) == [], "new refusals: review them and add them to REVIEWED"
    assert sorted(set(REVIEWED) - found) == [], "refusals no longer raised: take them out of REVIEWED"


def test_no_refusal_names_a_seat_by_number():
    # Players are named through a {player} param (the clients show the name), never "seat 0" in the text.
    # (A seat that does not exist is named by its number: "there is no player seat {seat}".)
    named = r"(?<!no )(?<!no player )\bseats? (\d|\{(player|players|active|seat)\})"
    assert [t for t in REVIEWED if re.search(named, t)] == []
