"""The real deck: reveals by the table, NFC taps of plant cards, and chance modes mixed in one session."""

from __future__ import annotations

import random

import pytest
from pg_table import GAME, plants_of, play, position, start, texts

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.games.power_grid.actions import DiscardPlant, OpenAuction, Pass, RevealPlant, RevealStep3
from companion.games.power_grid.data import PLANTS


def test_the_companion_asks_for_each_drawn_plant_and_a_tap_reveals_it():
    state = play(start(3, order=(0, 1, 2)), OpenAuction(0, 3, 3), Pass(1), Pass(2))
    assert GAME.current_seats(state) == (TABLE,)
    assert texts(state)[-1] == "Draw the top plant of the deck and tap it"
    assert GAME.view(state, None)["awaiting_draw"] is True
    # Plant 13 is known to be on top.
    assert GAME.legal_actions(state, TABLE) == [RevealPlant(TABLE, 13)]
    with pytest.raises(IllegalAction, match="next card of the deck is plant 13, not plant 27"):
        GAME.apply(state, RevealPlant(TABLE, 27))
    with pytest.raises(NotYourTurn, match="waiting for the table"):
        GAME.apply(state, OpenAuction(1, 4, 4))
    assert GAME.tag_action(state, "plant-13") == RevealPlant(TABLE, 13)
    state = play(state, RevealPlant(TABLE, 13))
    assert "Put plant 13 in the future market" in texts(state)


def test_the_table_only_reveals_and_the_host_only_chooses_regions():
    from companion.core import HOST
    from companion.games.power_grid.actions import ChooseRegions

    state = play(start(3, order=(0, 1, 2)), OpenAuction(0, 3, 3), Pass(1), Pass(2))
    with pytest.raises(IllegalAction, match="only the table reveals"):
        GAME.apply(state, OpenAuction(TABLE, 4, 4))
    with pytest.raises(IllegalAction, match="only the table reveals"):
        GAME.apply(state, ChooseRegions(TABLE, ("nw", "ne", "w")))
    fresh = GAME.setup(GAME.make_config(3, "physical"), random.Random(0))
    with pytest.raises(IllegalAction, match="only the table reveals"):
        GAME.apply(fresh, RevealPlant(HOST, 13))
    with pytest.raises(IllegalAction, match="the host chooses the regions"):
        GAME.apply(fresh, OpenAuction(HOST, 3, 3))


def test_plants_removed_at_setup_stay_unknown_so_any_unseen_plant_may_be_revealed():
    state = play(start(3, order=(0, 1, 2)), OpenAuction(0, 3, 3), Pass(1), Pass(2), RevealPlant(TABLE, 13))
    state = play(state, OpenAuction(1, 4, 4), Pass(2))
    unseen = {a.plant for a in GAME.legal_actions(state, TABLE)}
    assert unseen == set(PLANTS) - set(range(3, 11)) - {13}
    with pytest.raises(IllegalAction, match="plant 5 is already in the current market"):
        GAME.apply(state, RevealPlant(TABLE, 5))
    with pytest.raises(IllegalAction, match="plant 3 belongs to seat 1"):
        GAME.tag_action(state, "plant-03")


def test_a_tap_means_what_the_moment_needs():
    state = start(3, order=(0, 1, 2))
    assert GAME.tag_action(state, "plant-05") == OpenAuction(0, 5, 5)
    with pytest.raises(IllegalAction, match="plant 9 is already in the future market"):
        GAME.tag_action(state, "plant-09")
    with pytest.raises(IllegalAction, match="plant 27 has not been drawn yet"):
        GAME.tag_action(state, "plant-27")
    with pytest.raises(IllegalAction, match="enroll this tag first"):
        GAME.tag_action(state, "bean-chili-1")
    with pytest.raises(IllegalAction, match="the Step 3 card is still in the deck: it comes up only as the top card; "
                                            "tap the top card of the deck"):
        GAME.tag_action(state, "step-3")
    with pytest.raises(IllegalAction, match="the next card of the deck is plant 13, not the Step 3 card"):
        GAME.tag_action(play(state, OpenAuction(0, 3, 3), Pass(1), Pass(2)), "step-3")
    # Over the plant limit, a tap of an old plant discards it.
    full = position(
        state,
        round=3,
        players={0: {"plants": [4, 6, 7], "money": 90}},
        market=(8, 9, 10, 11, 12, 13, 14, 15),
        deck=(0, 0, 0),
    )
    full = play(full, OpenAuction(0, 8, 8), Pass(1), Pass(2), RevealPlant(TABLE, 30))
    assert GAME.tag_action(full, "plant-06") == DiscardPlant(0, 6)
    assert plants_of(play(full, GAME.tag_action(full, "plant-06")), 0) == [4, 7, 8]


def test_cards_cover_every_plant_and_the_step3_card():
    cards = GAME.cards()
    assert len(cards) == 43 and cards[-1] == "step-3"
    assert GAME.card_label("plant-27") == "plant 27" and GAME.card_label("step-3") == "the Step 3 card"


def test_a_session_may_draw_plants_from_the_real_deck_while_the_rest_is_digital():
    config = GAME.make_config(3, "digital", chance={"plant_draw": "physical"})
    state = GAME.setup(config, random.Random(2))
    assert not state.digital and state.deck[1] == 0


def test_digital_draws_reveal_information_and_cannot_be_undone_by_the_seat():
    config = GAME.make_config(3, options={"map": "usa"})
    state = GAME.setup(config, random.Random(2))
    state = play(state, GAME.legal_actions(state, "host")[0])
    chooser = GAME.current_seats(state)[0]
    opening = OpenAuction(chooser, 3, 3)
    after = play(state, opening)
    seats = [s for s in state.order if s != chooser]
    last = play(after, Pass(seats[0]))
    final = play(last, Pass(seats[1]))
    assert GAME.reveals_information(last, Pass(seats[1]), final)
    assert not GAME.reveals_information(state, opening, after)
    assert GAME.reveals_information(state, RevealStep3(TABLE), state)
