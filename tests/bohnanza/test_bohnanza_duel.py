"""The two-player duel (Rio Grande rules): no trading, a discard, three cards turned up, cards left to the opponent."""

from __future__ import annotations

from bohnanza_table import GAME, cards, dealt, move

from companion.core import TABLE
from companion.games.bohnanza.actions import (
    BuyField,
    DiscardBean,
    DrawBean,
    EndPlanting,
    EndTrading,
    Harvest,
    OfferTrade,
    PlantBean,
    TurnUpCards,
)

HANDS2 = [
    ["chili-01", "chili-02", "blue-01", "soy-01", "red-01"],
    ["blue-02", "blue-03", "stink-01", "green-01", "wax-01"],
]


def duel(options=None):
    return dealt(2, HANDS2, options)


def turned_up(table, *face_up):
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), *(DrawBean(TABLE, c) for c in face_up))


def test_the_duel_has_no_trading():
    table = duel()
    turned_up(table, "green-05", "wax-05", "soy-05")
    assert table.state.step == "duel_plant"
    table.refuses(OfferTrade(0, to=1, give_face_up=("green-05",)), "no trading in the two-player game")
    table.refuses(EndTrading(0), "no trading in the two-player game")


def test_three_cards_are_turned_up_and_the_top_discards_join_while_they_match():
    table = duel()
    table.state = move(table.state, ["red-07", "chili-07", "chili-08"], "discard")
    turned_up(table, "chili-05", "green-05", "wax-05")
    assert table.state.face_up == ("chili-05", "green-05", "wax-05", "chili-08", "chili-07")
    assert table.state.discard == ("red-07",)


def test_a_hand_card_may_be_discarded_once_after_planting():
    table = duel()
    table.refuses(DiscardBean(0, "soy-01"), "plant the front card of your hand first")
    table.do(PlantBean(0, "chili-01", 0), DiscardBean(0, "soy-01"))
    assert table.hand(0) == ("chili-02", "blue-01", "red-01") and table.state.discard == ("soy-01",)
    table.refuses(DiscardBean(0, "red-01"), "discarded a card this turn already")
    table.refuses(PlantBean(0, "chili-02", 0), "you discarded a card, so planting from your hand is over")
    table.do(TurnUpCards(0))
    assert table.state.step == "turn_up"


def test_cards_left_face_up_go_to_the_opponent_who_must_plant_or_discard_them_first():
    table = duel()
    turned_up(table, "chili-05", "green-05", "wax-05")
    table.do(PlantBean(0, "chili-05", 0), EndPlanting(0))
    assert table.state.face_up == ("green-05", "wax-05") and table.state.step == "draw"
    table.do(DrawBean(TABLE, "red-06"), DrawBean(TABLE, "red-07"))
    assert table.hand(0)[-2:] == ("red-06", "red-07")
    assert table.state.active == 1 and table.state.step == "duel_offer"
    table.refuses(PlantBean(1, "blue-02", 0), "not face up on the table")
    table.do(PlantBean(1, "green-05", 0), DiscardBean(1, "wax-05"))
    assert table.state.step == "plant" and table.state.discard[-1] == "wax-05"
    table.do(PlantBean(1, "blue-02", 1))


def test_the_duel_player_draws_two():
    table = duel()
    turned_up(table, "chili-05", "green-05", "wax-05")
    table.do(EndPlanting(0))
    assert table.state.to_reveal == 2


def test_harvest_only_on_your_own_turn_in_the_duel():
    table = duel()
    table.state = move(table.state, cards("red", 5, 7), "field", seat=1, field=0)
    assert GAME.current_seats(table.state) == (0,)
    table.refuses(Harvest(1, 0), "with two players you harvest only on your own turn")
    turned_up(table, "chili-05", "green-05", "wax-05")
    table.do(EndPlanting(0), DrawBean(TABLE, "soy-06"), DrawBean(TABLE, "soy-07"))
    table.do(PlantBean(1, "green-05", 1), DiscardBean(1, "wax-05"), Harvest(1, 0))
    assert table.coins(1) == 2


def test_the_duel_ends_when_the_deck_runs_out_the_first_time():
    table = duel()
    rest = [c for c in table.state.deck if c not in ("chili-05", "green-05")]
    table.state = move(table.state, rest, "removed")
    turned_up(table, "chili-05", "green-05")
    assert table.state.last_turn and table.state.face_up == ("chili-05", "green-05")
    table.do(PlantBean(0, "chili-05", 0), EndPlanting(0))
    assert table.state.over and table.state.exhaustions == 1


def test_coins_paid_for_a_field_leave_the_game_in_the_duel():
    table = duel()
    table.state = move(table.state, cards("wax", 11, 13), "coins", seat=0)
    table.do(BuyField(0))
    assert set(cards("wax", 11, 13)) <= set(table.state.removed) and table.state.discard == ()


def test_option_duel_third_field_start_gives_both_players_a_third_field():
    table = duel({"duel_third_field_start": True})
    assert [len(p.fields) for p in table.players] == [3, 3]
    table.state = move(table.state, cards("wax", 11, 13), "coins", seat=0)
    table.refuses(BuyField(0), "already have a third field")
    assert [len(p.fields) for p in duel().players] == [2, 2]


def test_the_duel_turn_up_is_three_cards():
    table = duel()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0))
    assert table.state.step == "turn_up" and table.state.to_reveal == 3
