"""Refusals are a template plus params, so the phones and the display can say them in the player's language."""

from __future__ import annotations

import itertools

import pytest
from bohnanza_table import GAME, cards, digital, move
from test_bohnanza_trading import trading
from test_bohnanza_turn import four

from companion.core import HOST, TABLE, IllegalAction, NotYourTurn
from companion.games.bohnanza.actions import (
    AcceptOffer,
    BuyField,
    CorrectCoins,
    DrawBean,
    EndTrading,
    OfferTrade,
    PlantBean,
    TurnUpCards,
)
from companion.i18n import catalog, log_line


def refusal(kind: type[IllegalAction], call, *args) -> IllegalAction:
    with pytest.raises(kind) as caught:
        call(*args)
    assert type(caught.value) is kind
    return caught.value


def test_where_a_card_is_is_one_sentence_per_place_with_the_seat_as_a_number():
    table = four()
    table.do(PlantBean(0, "chili-01", 0), TurnUpCards(0))
    exc = refusal(IllegalAction, GAME.tag_action, table.state, "chili-01")
    assert exc.template == "{card} is in {player}'s field {field}; tap the card taken from the draw deck"
    # The params keep the card's id, which every client words in its language; the English reason names the copy.
    assert exc.params == {"card": "chili-01", "player": 0, "field": 1}
    assert exc.reason == "Chili Bean 1 of 18 is in seat 1's field 1; tap the card taken from the draw deck"
    bengali = log_line(exc.template, exc.params, catalog("bn"), ["Ann", "Bo", "Cy", "Di"], game="bohnanza")
    assert catalog("bn").gettext("Chili Bean") in bengali and "Chili" not in bengali and "Ann" in bengali
    exc = refusal(IllegalAction, GAME.tag_action, table.state, "coffee-03")
    assert (exc.template, exc.params) == (
        "{card} is out of the game; tap the card taken from the draw deck",
        {"card": "coffee-03"},
    )
    exc = refusal(IllegalAction, GAME.apply, table.state, DrawBean(TABLE, "blue-02"))
    assert (exc.template, exc.params) == (
        "{card} is in {player}'s hand, not in the draw deck: tap the card taken from the draw deck",
        {"card": "blue-02", "player": 1},
    )
    exc = refusal(IllegalAction, GAME.tag_action, table.state, "PG13")
    assert (exc.template, exc.params) == ("'{card}' is not a Bohnanza card; enroll this tag first", {"card": "PG13"})
    assert exc.reason == "'PG13' is not a Bohnanza card; enroll this tag first"


def test_a_seat_that_must_wait_hears_whose_step_it_is():
    table = four()
    exc = refusal(NotYourTurn, GAME.apply, table.state, PlantBean(1, "blue-02", 0))
    assert exc.template == (
        "you have nothing to do now: {active} is planting from the hand; trading comes after the turn-up"
    )
    assert exc.params == {"active": 0}
    exc = refusal(IllegalAction, GAME.apply, table.state, PlantBean(0, "blue-01", 0))
    assert exc.template == (
        "only the front card of your hand may be planted, and {card} is not it: plant the front card"
    )
    assert exc.params == {"card": "blue-01"}
    assert "and Blue Bean 1 of 20 is not it" in exc.reason


def test_an_ordinal_is_part_of_the_sentence_and_the_position_a_number():
    table = trading()
    for give, template, position in (
        (7, "your hand has no {position}th card: it holds {count}; choose one of those", 8),
        (20, "your hand has no {position}st card: it holds {count}; choose one of those", 21),
        (21, "your hand has no {position}nd card: it holds {count}; choose one of those", 22),
        (12, "your hand has no {position}th card: it holds {count}; choose one of those", 13),
    ):
        exc = refusal(IllegalAction, GAME.apply, table.state, OfferTrade(1, to=0, give=(give,)))
        assert (exc.template, exc.params) == (template, {"position": position, "count": 5})
    assert exc.reason == "your hand has no 13th card: it holds 5; choose one of those"


def test_a_wrong_acceptance_names_the_beans_and_none_is_its_own_sentence():
    table = trading()
    table.do(OfferTrade(0, to=2, give=(3,), want=("soy", "soy")))
    exc = refusal(IllegalAction, GAME.apply, table.state, AcceptOffer(2, offer=1, give=(0,)))
    assert exc.template == "offer {offer} asks for {want} and you chose {chosen}: choose {want} from your hand"
    assert exc.params == {"offer": 1, "want": "soy, soy", "chosen": "soy"}
    exc = refusal(IllegalAction, GAME.apply, table.state, AcceptOffer(2, offer=1, give=()))
    assert (exc.template, exc.params) == (
        "offer {offer} asks for {want} and you chose none: choose {want} from your hand",
        {"offer": 1, "want": "soy, soy"},
    )
    exc = refusal(IllegalAction, GAME.apply, table.state, AcceptOffer(1, offer=1, give=()))
    assert (exc.template, exc.params) == (
        "offer {offer} was made to {player}: only they answer it", {"offer": 1, "player": 2}
    )


def test_field_and_coin_refusals_carry_the_numbers():
    table = digital(3)
    table.state = move(table.state, cards("wax", 11, 15), "coins", seat=1)
    exc = refusal(NotYourTurn, GAME.apply, table.state, BuyField(1))
    assert exc.template == "with {count} players everyone starts with three fields and none can be bought"
    assert exc.params == {"count": 3}
    exc = refusal(IllegalAction, GAME.apply, table.state, CorrectCoins(HOST, player=1, delta=-7))
    assert exc.template == (
        "{player} has only {count} coins, so {amount} cannot be taken away: take away at most {count}"
    )
    assert exc.params == {"player": 1, "count": 5, "amount": 7}
    assert exc.reason == "seat 2 has only 5 coins, so 7 cannot be taken away: take away at most 5"


def test_a_trade_attempt_in_the_duel_hears_there_is_no_trading():
    table = digital(2, seed=4)
    assert table.state.step == "plant" and table.state.active == 0
    for kind, action in (
        (NotYourTurn, OfferTrade(1, to=0, want=("soy",))),  # not the active player: still the duel's reason
        (IllegalAction, OfferTrade(0, to=1, want=("soy",))),
        (IllegalAction, EndTrading(0)),
    ):
        exc = refusal(kind, GAME.apply, table.state, action)
        assert exc.reason == "there is no trading in the two-player game"


def test_offers_have_no_limit_at_a_human_table_unless_the_option_sets_one():
    table = trading()
    assert table.state.rules.offers_per_turn == 0 and table.state.offers_left is None
    terms = list(itertools.product((1, 2, 3), range(4), range(1, 4)))[:30]  # more than the bots are ever offered
    for to, give, k in terms:
        table.do(OfferTrade(0, to=to, give=(give,), want=("soy",) * k))
    assert len(table.state.offers) == 30 and GAME.view(table.state, None)["offers_left"] is None
    limited = trading({"offers_per_turn": 2})
    limited.do(OfferTrade(0, to=1, want=("soy",)), OfferTrade(0, to=2, want=("soy",)))
    exc = refusal(IllegalAction, GAME.apply, limited.state, OfferTrade(0, to=3, want=("soy",)))
    assert exc.reason.startswith("no more offers this turn: 2 have been made (option offers_per_turn)")
