"""The turn, step by step: the deal, planting from the hand, turning up, planting set-aside cards, drawing."""

from __future__ import annotations

import random

import pytest
from bohnanza_table import GAME, Table, cards, dealt, digital, move

from companion.core import TABLE, NotYourTurn
from companion.games.bohnanza.actions import (
    BuyField,
    DrawBean,
    EndTrading,
    Harvest,
    PlantBean,
    TurnUpCards,
)
from companion.games.bohnanza.beans import PLAYER_COUNTS, bean_of

HANDS4 = [
    ["chili-01", "chili-02", "blue-01", "soy-01", "red-01"],
    ["blue-02", "blue-03", "stink-01", "green-01", "wax-01"],
    ["soy-02", "soy-03", "red-02", "wax-02", "green-02"],
    ["stink-02", "stink-03", "black_eyed-01", "blue-04", "chili-03"],
]


def four():
    return dealt(4, HANDS4)


@pytest.mark.parametrize("players", range(2, 8))
def test_starting_hands_fields_and_deck_by_player_count(players):
    state = digital(players).state
    rules = PLAYER_COUNTS[players]
    assert [len(p.hand) for p in state.players] == list(rules.hands)
    assert all(len(p.fields) == rules.fields for p in state.players)
    removed_beans = {bean_of(c) for c in state.removed}
    assert removed_beans == set(rules.removed)
    assert not any(bean_of(c) in removed_beans for c in state.deck)
    assert len(state.deck) + sum(rules.hands) + len(state.removed) == 154
    assert state.step == "plant" and state.active == 0


def test_six_and_seven_players_deal_three_four_five_then_six():
    assert [len(p.hand) for p in digital(7).state.players] == [3, 4, 5, 6, 6, 6, 6]
    assert [len(p.hand) for p in digital(6).state.players] == [3, 4, 5, 6, 6, 6]


def test_physical_deal_is_revealed_hand_by_hand_front_card_first():
    table = Table(GAME.setup(GAME.make_config(4, "physical"), random.Random(0)))
    assert table.state.step == "deal" and GAME.current_seats(table.state) == (TABLE,)
    table.refuses(PlantBean(0, "chili-01", 0), "table is still dealing")
    table.do(*(DrawBean(TABLE, c) for c in HANDS4[0]))
    assert table.hand(0) == tuple(HANDS4[0]) and table.hand(1) == ()
    table.do(*(DrawBean(TABLE, c) for hand in HANDS4[1:] for c in hand))
    assert [table.hand(s) for s in range(4)] == [tuple(h) for h in HANDS4]
    assert table.state.step == "plant" and table.state.active == 0
    # The dealt card is the dealt player's secret; everyone else only hears that a card was dealt.
    private = [m for m in table.log if m.visible_to == (1,)]
    assert [m.args["bean"] for m in private] == [bean_of(c) for c in HANDS4[1]]
    public = [m for m in table.log if m.visible_to is None]
    assert public and all("bean" not in m.args for m in public)


def test_first_hand_card_must_be_planted():
    table = four()
    table.refuses(TurnUpCards(0), "plant the front card of your hand first")
    table.refuses(PlantBean(0, "blue-01", 0), "only the front card of your hand may be planted")
    table.do(PlantBean(0, "chili-01", 0))
    assert table.fields(0)[0] == ("chili-01",) and table.hand(0)[0] == "chili-02"


def test_second_card_is_optional_and_there_is_no_third():
    table = four()
    table.do(PlantBean(0, "chili-01", 0))
    assert TurnUpCards(0) in GAME.legal_actions(table.state, 0)
    table.do(PlantBean(0, "chili-02", 0))
    table.refuses(PlantBean(0, "blue-01", 1), "planted two cards")
    assert [a for a in GAME.legal_actions(table.state, 0) if isinstance(a, PlantBean)] == []
    table.do(TurnUpCards(0))
    assert table.state.step == "turn_up"


def test_a_bean_goes_into_an_empty_field_or_a_field_of_its_kind():
    table = four()
    table.do(PlantBean(0, "chili-01", 1))
    table.state = move(table.state, ["blue-05"], "field", seat=0, field=0)
    table.refuses(PlantBean(0, "chili-02", 0), "field 1 holds blue beans")
    table.do(PlantBean(0, "chili-02", 1))
    assert table.fields(0) == (("blue-05",), ("chili-01", "chili-02"))


def test_a_bean_that_fits_no_field_forces_a_harvest_even_one_that_pays_nothing():
    table = four()
    table.state = move(table.state, ["blue-05"], "field", seat=0, field=0)
    table.state = move(table.state, ["soy-04"], "field", seat=0, field=1)
    legal = GAME.legal_actions(table.state, 0)
    assert not [a for a in legal if isinstance(a, PlantBean)]
    assert {Harvest(0, 0), Harvest(0, 1)} <= set(legal)
    table.refuses(PlantBean(0, "chili-01", 0), "harvest a field first")
    table.do(Harvest(0, 0))
    assert table.coins(0) == 0 and table.state.discard == ("blue-05",)
    table.do(PlantBean(0, "chili-01", 0))


def test_a_bean_that_fits_no_field_may_go_into_a_bought_third_field():
    table = four()
    table.state = move(table.state, ["blue-05"], "field", seat=0, field=0)
    table.state = move(table.state, ["soy-04"], "field", seat=0, field=1)
    table.state = move(table.state, cards("wax", 10, 12), "coins", seat=0)
    table.do(BuyField(0), PlantBean(0, "chili-01", 2))
    assert table.fields(0)[2] == ("chili-01",)


def test_two_cards_are_turned_up_then_trading_begins():
    table = four()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0))
    assert GAME.current_seats(table.state)[-1] == TABLE
    table.refuses(DrawBean(TABLE, "chili-01"), "in seat 1's field 1")
    table.do(DrawBean(TABLE, "green-05"), DrawBean(TABLE, "red-05"))
    assert table.state.face_up == ("green-05", "red-05") and table.state.step == "trade"


def test_digital_mode_turns_up_the_top_two_cards_itself():
    table = digital(4)
    top = table.state.deck[:2]
    front = table.hand(0)[0]
    table.do(PlantBean(0, front, 0), TurnUpCards(0))
    assert table.state.face_up == top and table.state.step == "trade"


def test_set_aside_cards_are_planted_in_any_order_after_trading():
    table = four()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "green-05"), DrawBean(TABLE, "chili-05"))
    table.do(EndTrading(0))
    assert table.players[0].set_aside == ("green-05", "chili-05") and table.state.face_up == ()
    assert table.state.step == "plant_set_aside" and GAME.current_seats(table.state) == (0,)
    table.do(PlantBean(0, "chili-05", 0), PlantBean(0, "green-05", 1))
    assert table.fields(0) == (("chili-01", "chili-05"), ("green-05",))
    assert table.state.step == "draw"


def test_draw_three_to_the_back_of_the_hand_then_the_next_player():
    table = four()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "green-05"), DrawBean(TABLE, "chili-05"))
    table.do(EndTrading(0), PlantBean(0, "chili-05", 0), PlantBean(0, "green-05", 1))
    before = table.hand(0)
    table.do(DrawBean(TABLE, "red-06"), DrawBean(TABLE, "wax-09"))
    assert table.state.step == "draw" and table.state.active == 0
    table.do(DrawBean(TABLE, "soy-09"))
    assert table.hand(0) == (*before, "red-06", "wax-09", "soy-09")
    assert table.state.active == 1 and table.state.step == "plant" and table.state.turn == 2


@pytest.mark.parametrize(("players", "draw"), [(3, 3), (5, 3), (6, 4), (7, 4)])
def test_the_active_player_draws_three_or_four_with_six_or_seven(players, draw):
    table = digital(players, seed=3)
    hand = table.hand(0)
    alike = [c for c in table.state.deck if bean_of(c) == bean_of(hand[0])][:2]
    table.state = move(table.state, alike, "deck_top")
    table.do(PlantBean(0, hand[0], 0), TurnUpCards(0), EndTrading(0))
    table.do(*(PlantBean(0, c, 0) for c in alike))
    assert len(table.hand(0)) == len(hand) - 1 + draw
    assert table.hand(0)[: len(hand) - 1] == hand[1:]
    assert table.state.active == 1


def test_other_players_wait_during_planting():
    table = four()
    assert GAME.current_seats(table.state) == (0,)
    with pytest.raises(NotYourTurn, match="seat 1 is planting from the hand"):
        GAME.apply(table.state, PlantBean(1, "blue-02", 0))


def test_with_an_empty_hand_planting_is_skipped():
    table = four()
    table.state = move(table.state, HANDS4[0], "discard")
    legal = GAME.legal_actions(table.state, 0)
    assert legal == [TurnUpCards(0)]
    table.do(TurnUpCards(0), DrawBean(TABLE, "green-05"), DrawBean(TABLE, "red-05"))
    assert table.state.step == "trade"
