"""Refusals are a template plus params, so the phones and the display can say them in the player's language."""

from __future__ import annotations

import pytest
from pg_table import GAME, play, position, start

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.games.power_grid.actions import BuildCity, BuyResources, Fire, OpenAuction, Pass, RevealPlant


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
    assert (exc.template, exc.params) == ("you have only {money} Elektro", {"money": 50})
    exc = refusal(IllegalAction, GAME.apply, state, OpenAuction(0, 8, 8))
    assert exc.template == "plant {plant} is in the future market; only the current market is sold"
    assert exc.params == {"plant": 8}


def test_where_a_card_is_is_one_sentence_per_place_with_the_seat_as_a_number():
    state = start(3, order=(0, 1, 2))
    exc = refusal(IllegalAction, GAME.tag_action, state, "step-3")
    assert (exc.template, exc.params) == ("the Step 3 card is still in the deck", {})
    exc = refusal(IllegalAction, GAME.tag_action, state, "plant-27")
    assert (exc.template, exc.params) == ("plant {plant} has not been drawn yet", {"plant": 27})
    drawing = play(state, OpenAuction(0, 3, 3), Pass(1), Pass(2))
    exc = refusal(IllegalAction, GAME.apply, drawing, RevealPlant(TABLE, 27))
    assert exc.template == "the next card of the deck is plant {top}, not plant {plant}"
    assert exc.params == {"top": 13, "plant": 27}
    exc = refusal(IllegalAction, GAME.tag_action, play(drawing, RevealPlant(TABLE, 13)), "plant-03")
    assert exc.template == "plant {plant} belongs to {player}"
    assert exc.params == {"plant": 3, "player": 0} and exc.reason == "plant 3 belongs to seat 0"
    exc = refusal(NotYourTurn, GAME.apply, drawing, OpenAuction(1, 4, 4))
    assert (exc.template, exc.params) == ("waiting for the table to reveal the plant drawn from the deck", {})
    exc = refusal(IllegalAction, GAME.tag_action, state, "bean-chili-1")
    assert exc.params == {"card": "bean-chili-1"}
    assert exc.reason == "'bean-chili-1' is not a Power Grid card; enroll this tag first"


def test_turn_resource_building_and_firing_refusals_name_their_parts():
    state = position(start(4, order=(0, 1, 2, 3)), phase="resources", queue=(3, 2, 1, 0), players={3: {"plants": [4]}})
    exc = refusal(NotYourTurn, GAME.apply, state, BuyResources(0, 4, "coal", 1))
    assert (exc.template, exc.params) == ("it is {player}'s turn", {"player": 3})
    exc = refusal(IllegalAction, GAME.apply, state, BuyResources(3, 4, "oil", 1))
    assert exc.template == "plant {plant} does not burn {resource}"
    assert exc.params == {"plant": 4, "resource": "oil"}
    exc = refusal(IllegalAction, GAME.apply, state, BuildCity(3, "essen"))
    assert exc.template == "now is the time to buy resources, not to {action}"
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
    assert exc.template == "those plants need {amount} {resource}; you hold {held}"
    assert exc.params == {"amount": 3, "resource": "oil", "held": 0}
    done = play(firing, Fire(0, (), 0))
    exc = refusal(NotYourTurn, GAME.apply, done, Fire(0, (), 0))
    assert (exc.template, exc.params) == ("it is the turn of seats {players}", {"players": (1, 2, 3)})
