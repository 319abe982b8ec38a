"""Trading and donating: a real negotiation in which nothing changes hands until both sides agree."""

from __future__ import annotations

from bohnanza_table import GAME, dealt
from test_bohnanza_turn import HANDS4

from companion.core import HOST, TABLE
from companion.games.bohnanza.actions import (
    AcceptOffer,
    CounterOffer,
    DrawBean,
    EndTrading,
    OfferTrade,
    PlantBean,
    RefuseOffer,
    TurnUpCards,
    WithdrawOffer,
)


def trading(options=None):
    """Seat 0 planted chili-01 and turned up green-05 and chili-05.

    Hands now: seat 0 chili-02 blue-01 soy-01 red-01; seat 1 blue-02 blue-03 stink-01 green-01 wax-01;
    seat 2 soy-02 soy-03 red-02 wax-02 green-02; seat 3 stink-02 stink-03 black_eyed-01 blue-04 chili-03.
    """
    table = dealt(4, HANDS4, options)
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0), DrawBean(TABLE, "green-05"), DrawBean(TABLE, "chili-05"))
    assert table.state.step == "trade"
    return table


def test_every_trade_involves_the_active_player():
    table = trading()
    table.refuses(OfferTrade(1, to=2, give=(0,), want=("soy",)), "every trade involves the active player, seat 1: "
                                                                 "make your offer to them")
    assert set(GAME.current_seats(table.state)) == {0, 1, 2, 3}
    assert all(a.to == 0 for a in GAME.legal_actions(table.state, 2) if isinstance(a, OfferTrade))


def test_the_active_player_trades_face_up_and_hand_cards():
    table = trading()
    table.do(OfferTrade(0, to=1, give=(1,), give_face_up=("green-05",), want=("stink",)))
    table.do(AcceptOffer(1, offer=1, give=(2,)))
    assert table.players[1].set_aside == ("blue-01", "green-05")
    assert table.players[0].set_aside == ("stink-01",)
    assert table.hand(0) == ("chili-02", "soy-01", "red-01")
    assert table.hand(1) == ("blue-02", "blue-03", "green-01", "wax-01")
    assert table.state.face_up == ("chili-05",)


def test_other_players_trade_hand_cards_only():
    table = trading()
    table.refuses(OfferTrade(1, to=0, give_face_up=("green-05",)), "only the active player may trade the face-up")


def test_other_players_may_ask_for_the_face_up_cards():
    table = trading()
    table.do(OfferTrade(1, to=0, give=(0,), want_face_up=("green-05",)))
    table.do(AcceptOffer(0, offer=1))
    assert table.players[1].set_aside == ("green-05",) and table.players[0].set_aside == ("blue-02",)
    assert table.state.face_up == ("chili-05",)


def test_nothing_changes_hands_until_both_sides_agree():
    table = trading()
    before = table.state
    table.do(OfferTrade(0, to=2, give=(3,), want=("soy", "soy")))
    assert table.state.players == before.players and table.state.face_up == before.face_up
    assert [o.id for o in table.state.offers] == [1]
    table.refuses(AcceptOffer(2, offer=1, give=(0,)), "asks for soy, soy and you chose soy: choose soy, soy from "
                                                      "your hand")
    table.refuses(AcceptOffer(1, offer=1, give=()), "offer 1 was made to seat 3: only they answer it")
    table.do(AcceptOffer(2, offer=1, give=(0, 1)))
    assert table.players[0].set_aside == ("soy-02", "soy-03") and table.players[2].set_aside == ("red-01",)


def test_an_offer_may_be_refused_and_nothing_moves():
    table = trading()
    table.do(OfferTrade(0, to=3, give_face_up=("green-05",), want=("stink",)))
    before = table.state.players
    table.do(RefuseOffer(3, offer=1))
    assert table.state.offers == () and table.state.players == before
    assert "3 refused offer 1 from 0" in table.texts()


def test_a_donation_may_be_refused():
    table = trading()
    table.do(OfferTrade(0, to=2, give_face_up=("chili-05",)))
    assert table.state.offers[0].want == () and "0 offered 2 a gift of chili (offer 1)" in table.texts()
    table.do(RefuseOffer(2, offer=1))
    assert table.state.face_up == ("green-05", "chili-05") and table.players[2].set_aside == ()


def test_a_donation_accepted_is_set_aside_by_the_receiver():
    table = trading()
    table.do(OfferTrade(3, to=0, give=(4,)))
    table.do(AcceptOffer(0, offer=1))
    assert table.players[0].set_aside == ("chili-03",) and "chili-03" not in table.hand(3)


def test_a_counter_offer_replaces_the_offer_it_answers():
    table = trading()
    table.do(OfferTrade(0, to=1, give_face_up=("chili-05",), want=("blue",)))
    table.do(CounterOffer(1, offer=1, give=(3,), want_face_up=("chili-05",)))
    (offer,) = table.state.offers
    assert (offer.id, offer.sender, offer.receiver, offer.give, offer.want_face_up) == (2, 1, 0, ("green-01",),
                                                                                      ("chili-05",))
    table.refuses(AcceptOffer(1, offer=1, give=(0,)), "no open offer 1")
    table.do(AcceptOffer(0, offer=2))
    assert table.players[0].set_aside == ("green-01",) and table.players[1].set_aside == ("chili-05",)


def test_an_offer_dies_when_its_cards_move():
    table = trading()
    table.do(OfferTrade(0, to=1, give_face_up=("green-05",)))
    table.do(OfferTrade(0, to=2, give_face_up=("green-05",), want=("wax",)))
    table.do(OfferTrade(0, to=3, give_face_up=("chili-05",)))
    table.do(AcceptOffer(1, offer=1))
    assert [o.id for o in table.state.offers] == [3]
    table.refuses(AcceptOffer(2, offer=2, give=(3,)), "no open offer 2")


def test_an_offer_for_cards_of_the_other_side_dies_when_they_move():
    table = trading()
    table.do(OfferTrade(1, to=0, give=(2,), want_face_up=("chili-05",)))
    table.do(OfferTrade(2, to=0, give=(2,), want_face_up=("chili-05",)))
    table.do(AcceptOffer(0, offer=2))
    assert table.state.offers == ()


def test_the_sender_may_withdraw_an_offer():
    table = trading()
    table.do(OfferTrade(2, to=0, give=(0,)))
    table.refuses(WithdrawOffer(0, offer=1), "offer 1 was made by seat 3: only they withdraw it")
    table.do(WithdrawOffer(2, offer=1))
    assert table.state.offers == ()


def test_the_same_offer_is_not_made_twice():
    table = trading()
    table.do(OfferTrade(2, to=0, give=(0,), want_face_up=("chili-05",)))
    table.refuses(OfferTrade(2, to=0, give=(0,), want_face_up=("chili-05",)), "made this offer already")


def test_an_offer_must_name_real_cards():
    table = trading()
    table.refuses(OfferTrade(1, to=0, give=(7,)), "your hand has no 8th card: it holds 5")
    table.refuses(OfferTrade(1, to=0, give=(1, 1)), "the same hand position is named twice")
    table.refuses(OfferTrade(1, to=0, want=("coffee",)), "there are no coffee beans in this game")
    table.refuses(OfferTrade(1, to=0, want_face_up=("red-07",)), "red-07 is not face up")
    table.refuses(OfferTrade(1, to=1, give=(0,)), "cannot trade with yourself")
    table.refuses(OfferTrade(1, to=9, give=(0,)), "there is no player 10: the players are 1 to 4")
    table.refuses(OfferTrade(1, to=0), "gives or asks for at least one card")
    table.refuses(OfferTrade(0, to=1, want=("blue",) * 6), "seat 2 holds only 5 cards: ask for fewer")


def test_the_number_of_offers_in_a_turn_is_limited_by_an_option():
    table = trading({"offers_per_turn": 2})
    table.do(OfferTrade(1, to=0, give=(0,)), OfferTrade(2, to=0, give=(0,)))
    table.refuses(OfferTrade(0, to=3, give=(0,)), "no more offers this turn: 2 have been made")
    table.refuses(OfferTrade(3, to=0, give=(0,)), "nothing to do now: no more offers this turn, 2 have been made")
    # Answers are still possible; seats with nothing left to do may no longer act.
    assert set(GAME.current_seats(table.state)) == {0, 1, 2}
    table.do(AcceptOffer(0, offer=1), EndTrading(0))


def test_only_the_active_player_ends_trading():
    table = trading()
    table.refuses(EndTrading(1), "only the active player, seat 1, ends trading")
    table.refuses(EndTrading(HOST), "without a trading time limit")
    table.do(EndTrading(0))
    assert table.state.step == "plant_set_aside"


def test_the_host_ends_trading_when_the_time_limit_is_up():
    table = trading({"trade_seconds": 90})
    assert GAME.view(table.state, None)["trade_seconds"] == 90
    table.do(EndTrading(HOST))
    assert table.players[0].set_aside == ("green-05", "chili-05")


def test_offers_end_with_trading_and_received_cards_must_be_planted():
    table = trading()
    table.do(OfferTrade(0, to=1, give_face_up=("green-05",), want=("blue",)))
    table.do(OfferTrade(0, to=3, give=(0,)))
    table.do(AcceptOffer(1, offer=1, give=(1,)))
    table.do(EndTrading(0))
    assert table.state.offers == () and table.state.step == "plant_set_aside"
    table.refuses(AcceptOffer(3, offer=2), "trading is over for this turn: seat 1 ended it")
    assert set(GAME.current_seats(table.state)) == {0, 1}
    table.do(PlantBean(0, "chili-05", 0), PlantBean(0, "blue-03", 1))
    assert table.state.step == "plant_set_aside"
    table.do(PlantBean(1, "green-05", 0))
    assert table.state.step == "draw"


def test_hand_order_never_changes_when_cards_leave_the_middle():
    table = trading()
    table.do(OfferTrade(1, to=0, give=(1, 3), want_face_up=("chili-05",)), AcceptOffer(0, offer=1))
    assert table.hand(1) == ("blue-02", "stink-01", "wax-01")


def test_legal_offers_are_all_accepted():
    table = trading()
    for seat in range(4):
        for action in GAME.legal_actions(table.state, seat):
            GAME.apply(table.state, action)
