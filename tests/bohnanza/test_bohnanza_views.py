"""What the table display and each phone see, the hints, and what undo may take back."""

from __future__ import annotations

import json

from bohnanza_table import GAME, cards, digital, move
from test_bohnanza_trading import trading
from test_bohnanza_turn import HANDS4, four

from companion.core import TABLE
from companion.games.bohnanza.actions import EndTrading, OfferTrade, PlantBean, TurnUpCards


def text(view: dict) -> str:
    return json.dumps(view)


def test_every_view_has_the_phase_the_current_seats_and_the_players():
    table = four()
    for seat in (None, 0, 1):
        view = GAME.view(table.state, seat)
        assert view["phase"] == "plant" and view["current_seats"] == [0] and len(view["players"]) == 4
        assert view["over"] is False and "scores" not in view


def test_the_public_view_shows_the_table_but_no_hand():
    table = trading()
    table.state = move(table.state, cards("red", 5, 7), "field", seat=2, field=1)
    table.do(OfferTrade(1, to=0, give=(3,), want_face_up=("green-05",)))
    view = GAME.view(table.state, None)
    assert view["face_up"] == [{"card": "green-05", "bean": "green"}, {"card": "chili-05", "bean": "chili"}]
    assert view["players"][2]["fields"][1] == {"bean": "red", "count": 3, "pays_now": 2,
                                              "next": {"beans": 4, "coins": 3}}
    assert [p["hand_size"] for p in view["players"]] == [4, 5, 5, 5]
    assert view["offers"] == [{"id": 1, "from": 1, "to": 0, "give": ["green"], "give_face_up": [],
                               "want": ["green"], "want_face_up": ["green-05"], "gift": False}]
    assert (view["deck_size"], view["discard_size"], view["exhaustions"], view["exhaustions_to_end"]) == (
        len(table.state.deck), 0, 0, 3)
    assert view["offers_left"] is None  # no limit on offers at a human table (option offers_per_turn 0)
    for hand in table.state.players:
        for card in hand.hand:
            assert card not in text(view)
    assert "me" not in view


def test_a_phone_sees_its_hand_in_order_with_the_front_card_marked_and_no_other_hand():
    table = four()
    view = GAME.view(table.state, 1)
    assert [c["card"] for c in view["me"]["hand"]] == HANDS4[1]
    assert [c["front"] for c in view["me"]["hand"]] == [True, False, False, False, False]
    for seat in (0, 2, 3):
        for card in HANDS4[seat]:
            assert card not in text(view)


def test_a_phone_shows_what_each_field_pays_now_and_after_the_beans_i_must_plant():
    table = four()
    table.state = move(table.state, cards("chili", 10, 11), "field", seat=0, field=0)
    me = GAME.view(table.state, 0)["me"]
    assert me["must_plant"] == [{"card": "chili-01", "bean": "chili"}]
    assert [(f["pays_now"], f["pays_after"], f["must_plant_here"]) for f in me["fields"]] == [(0, 1, 1), (0, 0, 0)]
    assert [f["harvestable"] for f in me["fields"]] == [True, False]


def test_a_phone_sees_the_offers_that_concern_it_with_its_own_hand_positions():
    table = trading()
    table.do(OfferTrade(1, to=0, give=(2,), want_face_up=("green-05",)))
    sender = GAME.view(table.state, 1)["me"]["offers"]
    receiver = GAME.view(table.state, 0)["me"]["offers"]
    bystander = GAME.view(table.state, 2)["me"]["offers"]
    assert sender[0]["give_positions"] == [2] and sender[0]["give"] == ["stink"]
    assert "give_positions" not in receiver[0] and receiver[0]["give"] == ["stink"]
    assert bystander == []


def test_set_aside_cards_are_public_and_must_be_planted():
    table = trading()
    table.do(EndTrading(0))
    view = GAME.view(table.state, None)
    assert view["phase"] == "plant_set_aside"
    assert [c["bean"] for c in view["players"][0]["set_aside"]] == ["green", "chili"]
    assert [c["card"] for c in GAME.view(table.state, 0)["me"]["must_plant"]] == ["green-05", "chili-05"]


def test_hints_name_the_beans_i_collect_my_spare_cards_and_the_forced_harvest():
    table = four()
    table.state = move(table.state, ["blue-10"], "field", seat=0, field=0)
    table.state = move(table.state, cards("red", 5, 7), "field", seat=0, field=1)
    hints = GAME.hints(table.state, 0)
    assert hints["collecting"] == ["blue", "red"]
    assert hints["must_harvest"] is True and hints["best_harvest"] == 1
    assert hints["spare_positions"] == [1, 3]  # chili-02 and soy-01; blue-01 and red-01 are collected


def test_undo_stops_at_revealed_cards_and_at_a_new_turn():
    table = digital(4)
    front = table.hand(0)[0]
    planted, _ = GAME.apply(table.state, PlantBean(0, front, 0))
    assert not GAME.reveals_information(table.state, PlantBean(0, front, 0), planted)
    turned, _ = GAME.apply(planted, TurnUpCards(0))
    assert GAME.reveals_information(planted, TurnUpCards(0), turned)
    assert GAME.turn_id(turned) == GAME.turn_id(table.state) == 1
    physical = four()
    start = physical.state
    physical.do(PlantBean(0, "chili-01", 0), TurnUpCards(0))
    assert not GAME.reveals_information(start, TurnUpCards(0), physical.state)
    assert physical.state.step == "turn_up" and TABLE in GAME.current_seats(physical.state)


def test_the_views_of_a_state_share_its_public_part_and_a_new_state_is_never_shown_an_old_one():
    """Every seat's view of one state starts from one public view (made once, copied at the top only); each view
    equals one made from scratch, state after state, in any order of seats."""
    import random

    from companion.games.bohnanza.views import private_view, public_view

    game, rng = GAME, random.Random(5)
    state = game.setup(game.make_config(4, "digital"), random.Random(1))
    bot = game.bots()["trader"]
    for step in range(40):
        current = list(game.current_seats(state))
        seats = [None, 0, 1, 2, 3]
        rng.shuffle(seats)
        for seat in seats:
            fresh = public_view(state, current) if seat is None else private_view(state, seat, current)
            assert game.view(state, seat) == fresh, (step, seat)
        # What one caller does to its copy does not reach the next caller's.
        game.view(state, 0)["me"] = "changed"
        game.view(state, None)["phase"] = "changed"
        assert game.view(state, 0) == private_view(state, 0, current)
        assert game.view(state, None) == public_view(state, current)
        seat = next(s for s in current if isinstance(s, int) and game.legal_actions(state, s))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, bot.choose(game, state, seat, legal, rng) or legal[0])
