"""The display's model: what changed, which scene, feedback that expires, a ticker with names, history by round."""

from __future__ import annotations

from display.model import ACCEPTED_SECONDS, REFUSED_SECONDS, DisplayModel, action_label


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def envelope(state_id: int = 0, *, over: bool = False, view: dict | None = None, log: list | None = None) -> dict:
    return {
        "session": 7, "game": "tiny", "title": "Tiny", "state_id": state_id, "status": "open", "mode": "digital",
        "seat": None, "players": [{"seat": 0, "name": "Ada", "colour": "#d62728"},
                                  {"seat": 1, "name": "Ben", "colour": "#1f77b4"}],
        "current_seats": [0], "over": over, "view": view if view is not None else {"scores": [0, 0], "turn": 0},
        "log": log or [],
    }


def test_a_new_envelope_reports_the_keys_that_changed():
    model = DisplayModel()
    model.set_envelope(envelope(1))
    changed = model.set_envelope(envelope(2, view={"scores": [3, 0], "turn": 0}))
    assert "state_id" in changed and "view.scores" in changed
    assert "view.turn" not in changed and "players" not in changed


def test_the_lobby_shows_until_the_first_action_or_the_host_starts():
    model = DisplayModel()
    assert model.scene_name() == "lobby"
    model.set_envelope(envelope(0))
    assert model.scene_name() == "lobby"
    model.dismiss_lobby()
    assert model.scene_name() == "game"
    fresh = DisplayModel()
    fresh.set_envelope(envelope(3))
    assert fresh.scene_name() == "game"


def test_a_finished_game_shows_the_summary():
    model = DisplayModel()
    model.set_envelope(envelope(9, over=True))
    assert model.scene_name() == "summary"


def test_accepted_feedback_goes_sooner_than_a_refusal():
    clock = FakeClock()
    model = DisplayModel(clock)
    model.apply_message({"type": "feedback", "ok": True, "seat": 0, "source": "phone", "text": "", "action": None})
    model.apply_message({"type": "feedback", "ok": False, "seat": 1, "source": "board",
                         "text": "it is not your turn", "action": None})
    assert len(model.live_feedback()) == 2
    assert model.next_deadline() == 100.0 + ACCEPTED_SECONDS
    clock.now += ACCEPTED_SECONDS + 0.01
    assert model.expire() == {"feedback"}
    assert [f.ok for f in model.live_feedback()] == [False]
    clock.now = 100.0 + REFUSED_SECONDS + 0.01
    model.expire()
    assert model.live_feedback() == [] and model.next_deadline() is None
    assert model.expire() == set()


def test_a_refusal_reads_with_the_player_name_and_the_reason():
    model = DisplayModel()
    model.set_envelope(envelope(1))
    model.add_feedback(False, "plant 13 needs a bid of at least 13", 1, "phone")
    assert model.feedback_line(model.feedback[-1]) == "Ben: refused, plant 13 needs a bid of at least 13"


def test_the_ticker_names_players_instead_of_seat_numbers():
    model = DisplayModel()
    log = [{"template": "{player} played {card}", "args": {"player": 1, "card": 5}, "text": "1 played 5"},
           {"text": "plain text only"}]
    model.set_envelope(envelope(2, log=log))
    assert model.ticker() == ["Ben played 5", "plain text only"]


def test_ticker_lines_worked_out_once_follow_a_renamed_player_and_another_language():
    from display.i18n import set_language

    model = DisplayModel()
    log = [{"template": "{player} built in {city} for {price} Elektro", "args": {"player": 1, "city": "Essen",
                                                                            "price": 12}}]
    model.set_envelope(envelope(2, log=log))
    assert model.ticker() == ["Ben built in Essen for 12 Elektro"] == model.ticker()
    renamed = envelope(3, log=log)
    renamed["players"][1]["name"] = "Bea"
    model.set_envelope(renamed)
    assert model.ticker() == ["Bea built in Essen for 12 Elektro"]
    try:
        set_language("is", False)
        assert model.ticker() != ["Bea built in Essen for 12 Elektro"] and "Bea" in model.ticker()[0]
    finally:
        set_language("en", False)
    assert model.ticker() == ["Bea built in Essen for 12 Elektro"]


def test_money_and_cities_are_kept_by_round_for_the_charts():
    model = DisplayModel()
    for round_no, money in ((1, [50, 50]), (1, [40, 45]), (2, [60, 30])):
        view = {"round": round_no, "players": [{"money": money[0], "cities": [1]}, {"money": money[1], "cities": []}]}
        model.set_envelope(envelope(round_no, view=view))
    rounds, money = model.history_series("money")
    assert rounds == [1, 2]
    assert money == [[40.0, 60.0], [45.0, 30.0]]  # the last view of each round counts
    assert model.history_series("cities")[1] == [[1.0, 1.0], [0.0, 0.0]]


def test_a_history_given_by_the_game_wins_over_what_the_display_saw():
    model = DisplayModel()
    model.set_envelope(envelope(1, view={"history": {"money": [[50, 50], [70, 20], [90, 10]]}}))
    assert model.history_series("money") == ([1, 2, 3], [[50, 70, 90], [50, 20, 10]])


def test_choices_list_a_seats_actions_and_the_keys_move_through_them():
    model = DisplayModel()
    model.set_envelope(envelope(1))
    legal = [{"seat": 0, "action": "play_card", "card": 3}, {"seat": 0, "action": "play_card", "card": 9}]
    model.apply_message({"type": "choices", "seat": 0, "legal": legal, "state_id": 1})
    assert model.choices is not None and [label for label, _ in model.choices.items] == [
        "Play card: card 3", "Play card: card 9"]
    model.move_choice(1)
    assert model.choices.selected == legal[1]
    model.move_choice(1)
    assert model.choices.selected == legal[0]
    model.apply_message({"type": "choices", "seat": 1, "legal": []})
    assert model.choices is None and not model.feedback[-1].ok


def test_an_action_label_names_its_fields():
    assert action_label({"seat": 2, "action": "bid", "plant": 13, "amount": 15}) == "Bid: plant 13, amount 15"
    assert action_label({"seat": 0, "action": "end_trading"}) == "End trading"


def test_a_new_session_forgets_the_old_history():
    model = DisplayModel()
    model.set_envelope(envelope(1, view={"round": 1, "players": [{"money": 1}, {"money": 2}]}))
    other = envelope(1, view={"turn": 0})
    other["session"] = 8
    model.set_envelope(other)
    assert model.history == {}


def test_a_turn_order_in_the_ticker_lists_names():
    model = DisplayModel()
    log = [{"template": "The turn order became {order}", "args": {"order": [1, 0]}, "text": "1, 0"}]
    model.set_envelope(envelope(2, log=log))
    assert model.ticker() == ["The turn order became Ben, Ada"]


def test_an_accepted_action_with_a_message_reads_with_it():
    model = DisplayModel()
    model.set_envelope(envelope(1))
    model.add_feedback(True, "bought plant 13", 0, "phone")
    model.add_feedback(True, "", None, "board")
    assert model.feedback_line(model.feedback[0]) == "Ada: bought plant 13"
    assert model.feedback_line(model.feedback[1]) == "controller: done"
