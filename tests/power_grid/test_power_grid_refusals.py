"""Refusals are a template plus params, so the phones and the display can say them in the player's language."""

from __future__ import annotations

import pytest
from pg_table import GAME, play, position, start

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.games.power_grid.actions import Bid, BuildCity, BuyResources, Fire, OpenAuction, Pass, RevealPlant


def refusal(kind: type[IllegalAction], call, *args) -> IllegalAction:
    with pytest.raises(kind) as caught:
        call(*args)
    return caught.value


def test_auction_refusals_carry_the_plant_and_the_amounts():
    state = start(4, order=(0, 1, 2, 3))
    exc = refusal(IllegalAction, GAME.apply, state, OpenAuction(0, 6, 5))
    assert exc.template == "plant {plant} needs a bid of at least {bid}"
    assert exc.params == {"plant": 6, "bid": 6}
    assert exc.reason == "plant 6 needs a bid of at least 6"
    exc = refusal(IllegalAction, GAME.apply, state, OpenAuction(0, 6, 51))
    assert (exc.template, exc.params) == ("you have only {money} Elektro: bid at most {money}", {"money": 50})
    exc = refusal(IllegalAction, GAME.apply, state, OpenAuction(0, 8, 8))
    assert exc.template == "plant {plant} is in the future market; only the current market is sold"
    assert exc.params == {"plant": 8}


def test_where_a_card_is_is_one_sentence_per_place_with_the_seat_as_a_number():
    state = start(3, order=(0, 1, 2))
    exc = refusal(IllegalAction, GAME.tag_action, state, "step-3")
    assert (exc.template, exc.params) == ("the Step 3 card is still in the deck: it comes up only as the top card; "
                                          "tap the top card of the deck", {})
    exc = refusal(IllegalAction, GAME.tag_action, state, "plant-27")
    assert (exc.template, exc.params) == ("plant {plant} has not been drawn yet: it is hidden in the deck; tap the "
                                          "top card of the deck or a plant of the market", {"plant": 27})
    drawing = play(state, OpenAuction(0, 3, 3), Pass(1), Pass(2))
    exc = refusal(IllegalAction, GAME.apply, drawing, RevealPlant(TABLE, 27))
    assert exc.template == "the next card of the deck is plant {top}, not plant {plant}: tap plant {top}"
    assert exc.params == {"top": 13, "plant": 27}
    exc = refusal(IllegalAction, GAME.tag_action, play(drawing, RevealPlant(TABLE, 13)), "plant-03")
    assert exc.template == ("plant {plant} belongs to {player} and is not for sale: choose a plant of the current "
                            "market or the top card of the deck")
    assert exc.params == {"plant": 3, "player": 0}
    assert exc.reason.startswith("plant 3 belongs to seat 1 and is not for sale")
    exc = refusal(NotYourTurn, GAME.apply, drawing, OpenAuction(1, 4, 4))
    assert (exc.template, exc.params) == ("waiting for the table to reveal the plant drawn from the deck: tap that "
                                          "card, then play on", {})
    exc = refusal(IllegalAction, GAME.tag_action, state, "bean-chili-1")
    assert exc.params == {"card": "bean-chili-1"}
    assert exc.reason == "'bean-chili-1' is not a Power Grid card; enroll this tag first"


def test_turn_resource_building_and_firing_refusals_name_their_parts():
    state = position(start(4, order=(0, 1, 2, 3)), phase="resources", queue=(3, 2, 1, 0), players={3: {"plants": [4]}})
    exc = refusal(NotYourTurn, GAME.apply, state, BuyResources(0, 4, "coal", 1))
    assert exc.template == "{player} buys resources now; you buy after them (reverse turn order)"
    assert exc.params == {"player": 3}
    exc = refusal(IllegalAction, GAME.apply, state, BuyResources(3, 4, "oil", 1))
    assert exc.template == "plant {plant} does not burn {resource}: choose a plant that burns it"
    assert exc.params == {"plant": 4, "resource": "oil"}
    exc = refusal(IllegalAction, GAME.apply, state, BuildCity(3, "essen"))
    assert exc.template == "now is the time to buy resources, not to {action}: buy, or finish buying"
    assert exc.params == {"action": "build city"}
    building = position(state, phase="building", players={3: {"money": 5}})
    exc = refusal(IllegalAction, GAME.apply, building, BuildCity(3, "atlantis"))
    assert exc.template == "{map} has no city '{city}'" and exc.params["city"] == "atlantis"
    firing = position(
        start(4, order=(0, 1, 2, 3)),
        phase="bureaucracy",
        queue=(0, 1, 2, 3),
        powered=(-1, -1, -1, -1),
        players={1: {"plants": [7]}},
    )
    exc = refusal(IllegalAction, GAME.apply, firing, Fire(1, (7,), 0))
    assert exc.template == "those plants need {amount} {resource} and you hold {held}: fire fewer plants"
    assert exc.params == {"amount": 3, "resource": "oil", "held": 0}
    done = play(firing, Fire(0, (), 0))
    exc = refusal(NotYourTurn, GAME.apply, done, Fire(0, (), 0))
    assert (exc.template, exc.params) == ("you have fired your plants this round; the others are firing theirs", {})


def test_a_hybrid_short_of_oil_hears_about_oil():
    # Hybrid 5 holds 1 coal and 1 oil: burning no coal needs 2 oil.
    state = position(
        start(4, order=(0, 1, 2, 3)),
        phase="bureaucracy",
        queue=(0,),
        powered=(-1, -1, -1, -1),
        players={0: {"plants": [(5, {"coal": 1, "oil": 1})], "cities": ["kiel"]}},
    )
    exc = refusal(IllegalAction, GAME.apply, state, Fire(0, (5,), 0))
    assert exc.reason == "those plants would burn 2 oil and you hold 1: let the hybrids burn 1 coal and 1 oil instead"
    exc = refusal(IllegalAction, GAME.apply, state, Fire(0, (5,), 2))
    assert exc.reason == "those plants would burn 2 coal and you hold 1: let the hybrids burn 1 coal and 1 oil instead"
    exc = refusal(IllegalAction, GAME.apply, state, Fire(0, (5,), 3))
    assert exc.reason == "your fired hybrids burn 2 tokens in all: choose from 0 to 2 of them to be coal"


def test_a_player_out_of_the_auctions_hears_why():
    state = play(start(4, order=(0, 1, 2, 3)), OpenAuction(0, 4, 4), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 13))
    exc = refusal(NotYourTurn, GAME.apply, state, OpenAuction(0, 3, 3))
    assert exc.template == "you bought plant {plant} this round: you are out of the auctions until the next round"
    assert exc.params == {"plant": 4}
    exc = refusal(NotYourTurn, GAME.apply, state, OpenAuction(2, 3, 3))
    assert exc.reason == "seat 2 chooses the next plant to auction now; you choose after them in turn order"
    running = play(state, OpenAuction(1, 3, 3), Pass(2))
    exc = refusal(NotYourTurn, GAME.apply, running, Bid(2, 5))
    assert exc.reason == "you passed on plant 3: you are out of this auction; you may open the next one in turn"
    exc = refusal(NotYourTurn, GAME.apply, running, Bid(1, 5))
    assert exc.reason == "seat 4 bids on plant 3 now; your turn to bid or pass comes in turn order"
    later = position(state, round=2, done=(0, 3), bought=(0,), bought_plants=(4,))
    exc = refusal(NotYourTurn, GAME.apply, later, OpenAuction(3, 3, 3))
    assert exc.reason == "you chose to buy no plant this round: you are out of the auctions until the next round"
