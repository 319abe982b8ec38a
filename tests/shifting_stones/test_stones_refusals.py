"""Refusals are a template plus params, so that phones and the display can say them in the player's language."""

from __future__ import annotations

import json

import pytest
from stones_table import HANDS, play, table

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.core.errors import CompanionError
from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.actions import DrawPattern, EndTurn, FlipStone, ScoreCard, ShiftStones
from companion.games.shifting_stones.patterns import FACES, KIND_NAMES, PATTERNS, STONE_COUNTS, check_grid


def refusal(call, *args) -> CompanionError:
    with pytest.raises(CompanionError) as caught:
        call(*args)
    exc = caught.value
    json.dumps(exc.to_json())  # the params travel as they are
    return exc


def test_refusals_carry_their_template_and_params():
    state = table(HANDS)
    exc = refusal(GAME.apply, state, ShiftStones(0, "SS10", 0, 4))
    assert exc.template == (
        "the {first} and {second} stones are not side by side: a shift swaps two stones next to each other in a row "
        "or a column"
    )
    assert exc.params == {"first": "top left", "second": "centre"}
    assert exc.reason.startswith("the top left and centre stones are not side by side")

    exc = refusal(GAME.apply, state, ScoreCard(0, "SS05"))
    assert (exc.template, exc.params) == (
        "pattern {card} ({pattern}) does not match the grid: shift or flip stones first",
        {"card": "SS05", "pattern": "bird horse"},
    )

    exc = refusal(GAME.apply, state, FlipStone(0, "SS99", 0))
    assert (exc.template, exc.params, exc.reason) == (
        "there is no pattern card '{card}': use a card of your hand",
        {"card": "SS99"},
        "there is no pattern card 'SS99': use a card of your hand",
    )


def test_a_seat_is_a_player_param_and_seat_n_in_english():
    state = table(HANDS)
    exc = refusal(GAME.tag_action, state, "SS14")
    assert isinstance(exc, IllegalAction)
    assert exc.template == "pattern {card} ({pattern}) is in {player}'s hand: tap a card of the hand whose turn it is"
    assert exc.params == {"card": "SS14", "pattern": PATTERNS["SS14"].text(), "player": 1}
    assert exc.reason.startswith("pattern SS14 (") and exc.reason.endswith(") is in seat 2's hand: tap a card of "
                                                                           "the hand whose turn it is")

    state = play(state, ScoreCard(0, "SS11"), FlipStone(0, "SS05", 0), EndTurn(0))
    exc = refusal(GAME.apply, state, EndTurn(1))
    assert isinstance(exc, NotYourTurn)
    assert (exc.template, exc.params, exc.reason) == (
        "the table is drawing a card for {player}: the game goes on once it is tapped",
        {"player": 0},
        "the table is drawing a card for seat 1: the game goes on once it is tapped",
    )
    exc = refusal(GAME.apply, state, DrawPattern(TABLE, "SS11"))
    assert (exc.template, exc.params, exc.reason) == (
        "{card} cannot come from the deck: it is already scored by {player}; tap the card just drawn",
        {"card": "SS11", "player": 0},
        "SS11 cannot come from the deck: it is already scored by seat 1; tap the card just drawn",
    )


def test_a_bad_grid_says_the_real_stones_in_its_sentence():
    exc = refusal(check_grid, ("sun",) * 9)
    want = ", ".join(f"{n} {name}" for name, n in zip(KIND_NAMES, STONE_COUNTS))
    assert exc.template == (
        f"the stones are {want}; this grid has {{count}} {{stone}}: check the stones and enter them again"
    )
    assert exc.params == {"count": 9, "stone": "sun/moon"}
    exc = refusal(check_grid, ("star",) * 9)
    assert exc.template == f"'{{face}}' is not a stone face (faces: {', '.join(FACES)})"
    assert exc.params == {"face": "star"}
    exc = refusal(check_grid, ("sun",) * 3)
    assert (exc.template, exc.params) == (
        "a grid has {stones} stones and {count} were entered: enter all {stones}, row by row from the top left",
        {"stones": 9, "count": 3},
    )
