"""Harvesting and selling beans, the single-bean protection, the third bean field, and coin corrections."""

from __future__ import annotations

from bohnanza_table import GAME, cards, dealt, digital, move
from test_bohnanza_turn import HANDS4

from companion.core import HOST
from companion.games.bohnanza.actions import BuyField, CorrectCoins, Harvest, PlantBean


def test_harvest_at_any_time_even_off_turn():
    table = dealt(4, HANDS4)
    table.state = move(table.state, cards("chili", 10, 12), "field", seat=2, field=1)
    assert set(GAME.current_seats(table.state)) == {0, 2}
    assert GAME.legal_actions(table.state, 2) == [Harvest(2, 1)]
    table.do(Harvest(2, 1))
    assert table.coins(2) == 1 and table.fields(2) == ((), ())
    assert "2 harvested 3 chili beans from field 2 for 1 coin" in table.texts()


def test_a_single_bean_field_is_protected_while_another_field_holds_two_or_more():
    table = dealt(4, HANDS4)
    table.state = move(table.state, ["blue-10"], "field", seat=1, field=0)
    table.state = move(table.state, cards("red", 6, 7), "field", seat=1, field=1)
    table.refuses(Harvest(1, 0), "field 1 holds a single bean and another of your fields holds more")
    table.do(Harvest(1, 1))
    assert table.coins(1) == 1
    table.do(Harvest(1, 0))
    assert table.fields(1) == ((), ())


def test_single_bean_fields_may_be_harvested_when_no_field_holds_more():
    table = dealt(4, HANDS4)
    table.state = move(table.state, ["blue-10"], "field", seat=1, field=0)
    table.state = move(table.state, ["red-08"], "field", seat=1, field=1)
    assert set(GAME.legal_actions(table.state, 1)) == {Harvest(1, 0), Harvest(1, 1)}
    table.refuses(Harvest(1, 2), "there is no field 3")


def test_harvest_pays_by_the_beanometer_and_coins_leave_circulation():
    table = dealt(4, HANDS4)
    field = cards("chili", 4, 12)
    table.state = move(table.state, field, "field", seat=3, field=0)
    table.do(Harvest(3, 0))
    assert table.players[3].coins == tuple(field[-4:])
    assert table.state.discard == tuple(field[:-4])
    view = GAME.view(table.state, None)
    assert view["players"][3]["coins"] == 4 and view["discard_size"] == 5 and view["discard_top"] == "chili"


def test_an_empty_field_cannot_be_harvested():
    table = dealt(4, HANDS4)
    table.state = move(table.state, ["red-08"], "field", seat=1, field=1)
    table.refuses(Harvest(1, 0), "field 1 is empty")


def test_the_third_field_costs_three_coins_once_at_any_time():
    table = dealt(4, HANDS4)
    table.state = move(table.state, cards("wax", 11, 14), "coins", seat=2)
    assert BuyField(2) in GAME.legal_actions(table.state, 2)
    table.do(BuyField(2))
    assert len(table.fields(2)) == 3 and table.coins(2) == 1
    assert table.state.discard == ("wax-12", "wax-13", "wax-14")
    table.refuses(BuyField(2), "already have a third field")


def test_the_third_field_needs_enough_coins():
    table = dealt(4, HANDS4)
    table.state = move(table.state, cards("wax", 11, 12), "coins", seat=0)
    table.refuses(BuyField(0), "costs 3 coins and you have 2")


def test_the_third_field_costs_two_coins_with_six_or_seven_players():
    for players in (6, 7):
        table = digital(players)
        table.state = move(table.state, cards("wax", 11, 12), "coins", seat=4)
        table.do(BuyField(4))
        assert len(table.fields(4)) == 3 and table.coins(4) == 0


def test_three_players_start_with_three_fields_and_may_not_buy():
    table = digital(3)
    table.state = move(table.state, cards("wax", 11, 15), "coins", seat=1)
    assert all(len(p.fields) == 3 for p in table.players)
    table.refuses(BuyField(1), "with 3 players everyone starts with three fields")
    hand = table.hand(0)
    table.do(PlantBean(0, hand[0], 2))


def test_host_coin_corrections_take_from_the_discard_pile_else_from_the_bottom_of_the_deck():
    table = digital(4, seed=3)
    table.state = move(table.state, cards("red", 5, 6), "discard")
    bottom = table.state.deck[-2:]
    table.do(CorrectCoins(HOST, player=2, delta=4))  # right after a reshuffle the discard pile may well be empty
    assert table.players[2].coins == ("red-05", "red-06", *bottom)
    assert table.state.discard == () and table.state.deck[-1] not in bottom
    table.do(CorrectCoins(HOST, player=2, delta=-4))  # taken away, they go to the discard pile
    assert table.coins(2) == 0 and len(table.state.discard) == 4


def test_the_host_corrects_coins_from_and_to_the_discard_pile():
    table = dealt(4, HANDS4)
    table.state = move(table.state, cards("red", 5, 8), "discard")
    table.do(CorrectCoins(HOST, player=1, delta=2))
    assert table.players[1].coins == ("red-07", "red-08") and table.state.discard == ("red-05", "red-06")
    table.do(CorrectCoins(HOST, player=1, delta=-1))
    assert table.coins(1) == 1 and table.state.discard[-1] == "red-08"
    assert "The host corrected 1's coins by -1 to 1" in table.texts()
    table.refuses(CorrectCoins(HOST, player=1, delta=-5), "seat 2 has only 1 coins")
    out = len(table.state.deck) + 3
    table.refuses(CorrectCoins(HOST, player=1, delta=out + 1),
                  f"only {out} cards are left on the discard pile and in the deck to turn into coins")
    table.refuses(CorrectCoins(0, player=0, delta=1), "only the host corrects coins")
    table.refuses(CorrectCoins(HOST, player=8, delta=1), "there is no player 9: the players are 1 to 4")
