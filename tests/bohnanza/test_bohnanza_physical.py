"""Physical mode: every card is a tagged card; the deck order is unknown; a tap means a reveal or a planting."""

from __future__ import annotations

import random

import pytest
from bohnanza_table import GAME, Table, cards, digital, move
from test_bohnanza_trading import trading
from test_bohnanza_turn import four

from companion.core import TABLE, IllegalAction
from companion.games.bohnanza.actions import DrawBean, EndTrading, PlantBean, TurnUpCards


def test_every_card_can_carry_a_tag_and_reads_well():
    assert len(GAME.cards()) == 154 and GAME.cards()[0] == "coffee-01"
    assert GAME.card_label("black_eyed-07") == "Black-eyed Bean 7 of 10"


def test_any_card_still_unseen_may_be_revealed():
    table = Table(GAME.setup(GAME.make_config(5, "physical"), random.Random(9)))
    legal = GAME.legal_actions(table.state, TABLE)
    assert len(legal) == 130 and DrawBean(TABLE, "cocoa-04") in legal
    assert GAME.tag_action(table.state, "wax-17") == DrawBean(TABLE, "wax-17")
    table.do(DrawBean(TABLE, "wax-17"))
    assert len(GAME.legal_actions(table.state, TABLE)) == 129


def test_a_tap_of_a_card_known_to_be_elsewhere_is_refused_with_where_it_is():
    table = four()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0))
    with pytest.raises(IllegalAction, match="Chili Bean 1 of 18 is in seat 1's field 1"):
        GAME.tag_action(table.state, "chili-01")
    with pytest.raises(IllegalAction, match="Blue Bean 2 of 20 is in seat 2's hand"):
        GAME.tag_action(table.state, "blue-02")
    with pytest.raises(IllegalAction, match="Coffee Bean 3 of 24 is out of the game"):
        GAME.tag_action(table.state, "coffee-03")
    table.refuses(DrawBean(TABLE, "blue-02"), "Blue Bean 2 of 20 is in seat 2's hand, not in the draw deck")


def test_an_unknown_tag_is_refused():
    with pytest.raises(IllegalAction, match="enroll this tag first"):
        GAME.tag_action(four().state, "PG13")


def test_a_tap_of_the_front_card_plants_it_where_its_bean_grows():
    table = four()
    table.state = move(table.state, ["chili-10"], "field", seat=0, field=1)
    assert GAME.tag_action(table.state, "chili-01") == PlantBean(0, "chili-01", 1)
    with pytest.raises(IllegalAction, match="is in seat 1's hand; a tap of it means nothing now"):
        GAME.tag_action(table.state, "chili-02")


def test_a_tap_of_a_set_aside_card_plants_it_for_its_owner():
    table = trading()
    table.do(EndTrading(0))
    action = GAME.tag_action(table.state, "green-05")
    assert action == PlantBean(0, "green-05", 1)
    table.do(action)


def test_a_tap_when_no_field_fits_says_to_harvest_first():
    table = four()
    table.state = move(table.state, ["blue-10"], "field", seat=0, field=0)
    table.state = move(table.state, ["red-08"], "field", seat=0, field=1)
    with pytest.raises(IllegalAction, match="harvest a field"):
        GAME.tag_action(table.state, "chili-01")


def test_a_digital_session_takes_no_taps():
    with pytest.raises(IllegalAction, match="deals digitally"):
        GAME.tag_action(digital(4).state, "chili-01")


def test_only_the_table_reveals_cards():
    table = four()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0))
    table.refuses(DrawBean(0, "chili-07"), "revealed by the table")
    table.do(DrawBean(TABLE, "chili-07"), DrawBean(TABLE, "chili-08"))
    table.refuses(DrawBean(TABLE, "chili-09"), "no card is being dealt, turned up or drawn now")
    assert cards("chili", 7, 8) == list(table.state.face_up)


def test_a_tap_of_a_deck_or_discard_card_while_nothing_is_revealed_means_nothing():
    table = four()
    table.state = move(table.state, ["red-08"], "discard")
    with pytest.raises(IllegalAction, match="Red Bean 5 of 8 is in the draw deck; a tap of it means nothing now"):
        GAME.tag_action(table.state, "red-05")
    with pytest.raises(IllegalAction, match="Red Bean 8 of 8 is on the discard pile"):
        GAME.tag_action(table.state, "red-08")
