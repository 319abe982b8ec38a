"""Deck exhaustion, reshuffles, the end of the game, the final harvest and the winner."""

from __future__ import annotations

import dataclasses

import pytest
from bohnanza_table import GAME, Table, cards, dealt, digital, move
from test_bohnanza_turn import HANDS4

from companion.core import TABLE, chance_rng
from companion.games.bohnanza.actions import DrawBean, EndTrading, Harvest, PlantBean, TurnUpCards


def thin_deck(table: Table, keep: list[str], exhaustions: int = 0) -> None:
    """Leave only `keep` in the deck (the other cards go out of the game) and set the exhaustions so far."""
    rest = [c for c in table.state.deck if c not in keep]
    table.state = move(table.state, rest, "removed")
    table.state = dataclasses.replace(table.state, exhaustions=exhaustions)
    if not table.state.rules.physical:
        table.state = move(table.state, keep, "deck_top")


def test_an_empty_deck_is_reshuffled_from_the_discard_pile():
    table = digital(4, seed=5)
    thin_deck(table, ["red-01"])
    table.state = move(table.state, cards("wax", 1, 5), "discard")
    table.do(PlantBean(0, table.hand(0)[0], 0), TurnUpCards(0))
    reshuffled = cards("wax", 1, 5)
    chance_rng(table.state.seed, "reshuffle", 1).shuffle(reshuffled)
    assert table.state.face_up == ("red-01", reshuffled[0])
    assert table.state.deck == tuple(reshuffled[1:]) and table.state.discard == ()
    assert table.state.exhaustions == 1 and not table.state.over
    assert "The draw deck ran out (1 of 3)" in table.texts()


def test_physical_reshuffle_lets_the_table_reveal_any_card_of_the_old_discard_pile():
    table = dealt(4, HANDS4)
    thin_deck(table, ["red-06"])
    table.state = move(table.state, cards("wax", 11, 13), "discard")
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "red-06"))
    assert table.state.deck == ("wax-11", "wax-12", "wax-13") and table.state.exhaustions == 1
    assert GAME.legal_actions(table.state, TABLE) == [DrawBean(TABLE, c) for c in cards("wax", 11, 13)]
    table.do(DrawBean(TABLE, "wax-12"))
    assert table.state.face_up == ("red-06", "wax-12")


def reach_drawing(table: Table) -> None:
    """Seat 0 plants chili-01, turns up two chilis, keeps them and plants them; the draw comes next."""
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "chili-05"), DrawBean(TABLE, "chili-06"))
    table.do(EndTrading(0), PlantBean(0, "chili-05", 0), PlantBean(0, "chili-06", 0))


def test_the_game_ends_at_once_when_the_deck_runs_out_the_third_time_while_drawing():
    table = dealt(4, HANDS4)
    thin_deck(table, ["chili-05", "chili-06", "red-06"], exhaustions=2)
    reach_drawing(table)
    assert table.state.step == "draw"
    table.do(DrawBean(TABLE, "red-06"))
    assert table.state.over and table.state.exhaustions == 3
    assert table.hand(0) == ("chili-02", "blue-01", "soy-01", "red-01", "red-06")
    assert table.fields(0) == ((), ()) and table.coins(0) == 1  # chili x4 pays 1


def test_running_out_while_turning_up_finishes_step_three_with_just_one_card():
    table = dealt(4, HANDS4)
    thin_deck(table, ["green-05"], exhaustions=2)
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "green-05"))
    assert table.state.face_up == ("green-05",) and table.state.last_turn and table.state.step == "trade"
    assert GAME.view(table.state, None)["last_turn"] is True
    table.do(EndTrading(0))
    assert not table.state.over
    table.do(PlantBean(0, "green-05", 1))
    assert table.state.over and table.hand(0) == ("chili-02", "blue-01", "soy-01", "red-01")


@pytest.mark.parametrize(("players", "limit"), [(3, 2), (4, 3), (6, 3)])
def test_the_end_comes_at_the_third_exhaustion_or_the_second_with_three_players(players, limit):
    for before, ends in ((limit - 2, False), (limit - 1, True)):
        table = digital(players, seed=2)
        last = table.state.deck[0]
        thin_deck(table, [last], exhaustions=before)
        table.state = move(table.state, cards("red", 1, 4), "discard")
        table.do(PlantBean(0, table.hand(0)[0], 0), TurnUpCards(0))
        assert table.state.exhaustions == before + 1
        assert table.state.last_turn is ends
        assert len(table.state.face_up) == (1 if ends else 2)


def test_the_deck_is_exhausted_the_moment_its_last_card_is_taken():
    # The first exhaustion comes with the last card, not with the next card wanted: it cannot jump to the third.
    table = digital(4, seed=2)
    last = table.state.deck[0]
    thin_deck(table, [last])
    table.state = move(table.state, cards("red", 1, 4), "discard")
    table.do(PlantBean(0, table.hand(0)[0], 0), TurnUpCards(0))
    assert table.state.exhaustions == 1 and len(table.state.deck) == 3 and table.state.discard == ()
    assert table.texts().count("The draw deck ran out (1 of 3)") == 1


def test_an_exhaustion_with_an_empty_discard_pile_ends_the_game():
    # Drawing: the game ends at once, although this is only the first exhaustion.
    table = dealt(4, HANDS4)
    thin_deck(table, ["chili-05", "chili-06", "red-06"])
    reach_drawing(table)
    table.do(DrawBean(TABLE, "red-06"))
    assert table.state.over and table.state.exhaustions == 1
    assert "The discard pile is empty, so no new draw deck can be made: the game ends" in table.texts()
    # Turning up: the active player finishes step 3 with the one card turned up, then the game ends.
    table = dealt(4, HANDS4)
    thin_deck(table, ["green-05"])
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "green-05"))
    assert table.state.exhaustions == 1 and table.state.last_turn and table.state.face_up == ("green-05",)
    table.do(EndTrading(0), PlantBean(0, "green-05", 1))
    assert table.state.over


def test_the_final_harvest_ignores_the_single_bean_rule_and_hands_score_nothing():
    table = dealt(4, HANDS4)
    thin_deck(table, ["chili-05", "chili-06", "red-06"], exhaustions=2)
    table.state = move(table.state, ["soy-09"], "field", seat=2, field=0)
    table.state = move(table.state, cards("red", 3, 5), "field", seat=2, field=1)
    reach_drawing(table)
    table.do(DrawBean(TABLE, "red-06"))
    assert table.state.over
    assert table.fields(2) == ((), ()) and table.coins(2) == 2  # soy x1 pays 0, red x3 pays 2
    assert "soy-09" in table.state.discard
    scores = GAME.scores(table.state)
    assert scores["scores"] == [1, 0, 2, 0] and scores["winners"] == [2] and scores["final"]
    assert GAME.view(table.state, None)["scores"] == scores
    assert GAME.current_seats(table.state) == () and GAME.legal_actions(table.state, 2) == []
    table.refuses(Harvest(2, 0), "the game is over")


def test_most_coins_wins_then_most_hand_cards_then_a_shared_win():
    table = dealt(4, HANDS4)
    table.state = move(table.state, cards("wax", 11, 13), "coins", seat=1)
    table.state = move(table.state, cards("wax", 14, 16), "coins", seat=3)
    table.state = move(table.state, ["blue-10"], "hand", seat=3)
    assert GAME.scores(table.state)["winners"] == [3]
    table.state = move(table.state, ["blue-11"], "hand", seat=1)
    assert GAME.scores(table.state)["winners"] == [1, 3]


def test_the_discard_pile_is_reshuffled_as_soon_as_the_last_card_is_taken():
    table = dealt(4, HANDS4)
    thin_deck(table, ["chili-05", "chili-06", "red-06"])
    table.state = move(table.state, cards("wax", 11, 13), "discard")
    reach_drawing(table)
    table.do(DrawBean(TABLE, "red-06"))
    assert table.state.exhaustions == 1 and table.state.discard == ()
    assert table.state.deck == tuple(cards("wax", 11, 13)) and table.state.to_reveal == 2


def test_taking_the_last_card_of_the_last_deck_ends_the_game_even_with_the_draw_complete():
    table = dealt(4, HANDS4)
    thin_deck(table, ["chili-05", "chili-06", *cards("red", 6, 8)], exhaustions=2)
    reach_drawing(table)
    table.do(*(DrawBean(TABLE, c) for c in cards("red", 6, 8)))
    assert table.state.over and table.hand(0)[-3:] == tuple(cards("red", 6, 8))
