"""Views, host corrections, undo boundaries and the option of the Shifting Stones engine."""

from __future__ import annotations

import json
import random

import pytest
from stones_table import GRID, HANDS, digital, play, play_logged, table

from companion.core import HOST, TABLE, IllegalAction
from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.actions import (
    CorrectGrid,
    CorrectScore,
    DrawPattern,
    EndTurn,
    FlipStone,
    ScoreCard,
    ShiftStones,
    SkipTurn,
)


def test_the_public_view_shows_the_table_but_no_hand():
    state = play(table(HANDS), ScoreCard(0, "SS44"), FlipStone(0, "SS05", 0))
    view = GAME.view(state, None)
    text = json.dumps(view)
    assert "hand" not in view
    for secret in ("SS11", "SS10", "SS14", "SS50"):
        assert secret not in text
    assert view["phase"] == "play" and view["current_seats"] == [0] and view["over"] is False
    assert view["grid"]["faces"][0] == "moon" and view["last_move"] == [0]
    assert [p["hand_size"] for p in view["players"]] == [2, 4]
    assert view["players"][0]["scored"][0] == {"card": "SS44", "points": 2, "rows": [["tree", "*", "seed"]]}
    assert view["players"][0]["score"] == 2 and view["players"][1]["skipped_last_turn"] is False
    assert view["discard_size"] == 1 and view["discard_top"]["card"] == "SS05"
    assert view["deck_size"] == 64
    assert view["end_trigger"] == 10 and view["most_scored"] == 1 and view["final_round"] is False
    assert view["this_turn"] == {"actions": 2, "scored": 1, "may_skip": False}


def test_a_players_view_adds_the_hand_with_where_each_card_scores_now():
    state = table(HANDS)
    view = GAME.view(state, 0)
    hand = {c["card"]: c for c in view["hand"]}
    assert list(hand) == HANDS[0]
    assert hand["SS11"]["scores_now"] and hand["SS11"]["where"] == [{"offset": [1, 1], "cells": [4, 5]}]
    assert hand["SS44"]["where"] == [{"offset": [2, 0], "cells": [6, 8]}]
    assert not hand["SS05"]["scores_now"] and hand["SS05"]["where"] == []
    assert view["your_turn"] is True and GAME.view(state, 1)["your_turn"] is False
    assert "SS11" not in json.dumps(GAME.view(state, 1))


def test_the_solo_view_counts_strikes():
    state = play(table([HANDS[0]]), EndTurn(0))
    view = GAME.view(state, None)
    assert view["solo"] == {"strikes": 1, "strikes_to_lose": 4, "scored": 0, "cards": 16, "result": "playing"}
    assert "end_trigger" not in view


def test_the_physical_setup_view_says_what_the_table_owes():
    state = GAME.setup(GAME.make_config(2, "physical"), random.Random(1))
    view = GAME.view(state, None)
    assert view["phase"] == "setup" and view["current_seats"] == ["table"] and view["grid"] is None
    assert view["awaiting"] == {"grid": True, "draws_for": [0] * 4 + [1] * 4}
    with pytest.raises(IllegalAction, match="the starting grid and the dealt cards come first; then the game starts"):
        GAME.apply(state, EndTurn(0))


def test_host_corrects_a_score_with_a_logged_action():
    state = table(HANDS)
    state, log = play_logged(state, CorrectScore(HOST, 1, 3))
    assert GAME.scores(state)["scores"] == [0, 3]
    assert log[0].template == "The host corrected {player}'s score by {delta}"
    assert log[0].args == {"player": 1, "delta": 3}
    assert CorrectScore.host_only and CorrectGrid.host_only
    with pytest.raises(IllegalAction, match="only the host"):
        GAME.apply(state, CorrectScore(0, 0, 5))
    with pytest.raises(IllegalAction, match="no player 8: players are 1 to 2"):
        GAME.apply(state, CorrectScore(HOST, 7, 1))
    assert GAME.turn_id(state) == GAME.turn_id(table(HANDS))


def test_host_corrects_the_grid_to_match_the_table():
    state = table(HANDS)
    fixed = ("moon", *GRID[1:])
    state = play(state, CorrectGrid(HOST, fixed))
    assert state.grid == fixed and GAME.current_seats(state) == (0,)
    with pytest.raises(IllegalAction, match="this grid has 2 sun/moon"):
        GAME.apply(state, CorrectGrid(HOST, ("sun", "sun", *GRID[2:])))


def test_a_turn_ends_for_undo_when_the_next_player_starts():
    state = table(HANDS)
    moved = play(state, ShiftStones(0, "SS05", 0, 1))
    assert GAME.turn_id(moved) == GAME.turn_id(state)
    ended = play(moved, EndTurn(0))
    assert GAME.turn_id(ended) == GAME.turn_id(moved)  # still seat 0's turn until its cards are drawn
    drawn = play(ended, DrawPattern(TABLE, "SS70"))
    assert GAME.turn_id(drawn) != GAME.turn_id(ended)
    assert GAME.reveals_information(ended, DrawPattern(TABLE, "SS70"), drawn)
    assert not GAME.reveals_information(state, ShiftStones(0, "SS05", 0, 1), moved)


def test_a_digital_draw_reveals_information_and_cannot_be_undone_by_the_seat():
    state = digital(2)
    card = state.players[0].hand[0]
    moved = play(state, FlipStone(0, card, 0))
    assert not GAME.reveals_information(state, FlipStone(0, card, 0), moved)
    ended = play(moved, EndTurn(0))
    assert GAME.reveals_information(moved, EndTurn(0), ended)
    skipped = play(state, SkipTurn(0))
    assert GAME.reveals_information(state, SkipTurn(0), skipped)


def test_the_hints_option_turns_the_hints_off():
    assert GAME.hints(table(HANDS, hints=False), 0) == {"disabled": True}
    assert GAME.hints(table(HANDS), 0)["cards"]
    assert [o.name for o in GAME.options] == ["hints"]


def test_actions_have_a_stable_json_form():
    action = ShiftStones(0, "SS05", 3, 4)
    assert action.to_json() == {"seat": 0, "action": "shift_stones", "card": "SS05", "a": 3, "b": 4}
    assert GAME.actions.parse(json.dumps(action.to_json())) == action
    assert set(GAME.actions.kinds) == {
        "shift_stones", "flip_stone", "score_card", "end_turn", "skip_turn", "set_grid", "draw_pattern",
        "correct_score", "correct_grid",
    }  # fmt: skip
