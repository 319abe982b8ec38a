"""The engine core: action JSON, schemas, options, errors, and the shared harness on the tiny game."""

from __future__ import annotations

import dataclasses
import json

import pytest
from tiny_game import AdjustScore, PlayCard, RevealCard

from companion.core import (
    HOST,
    TABLE,
    BadConfig,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    chance_rng,
    get_game,
    parse_seat,
)
from companion.core.serial import from_json, to_json
from companion.testing.harness import PlayoutFailure, playout, selfplay


def test_action_json_form_is_flat_with_seat_and_kind(tiny):
    action = PlayCard(0, 7)
    assert action.to_json() == {"seat": 0, "action": "play_card", "card": 7}
    assert tiny.actions.parse(json.dumps(action.to_json())) == action
    assert tiny.actions.parse({"seat": "table", "action": "reveal_card", "card": 3}) == RevealCard(TABLE, 3)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ({"seat": 0}, "no 'action'"),
        ({"seat": 0, "action": "fly"}, "unknown action 'fly'"),
        ({"action": "play_card", "card": 1}, "no 'seat'"),
        ({"seat": -1, "action": "play_card", "card": 1}, "not a seat"),
        ({"seat": "nobody", "action": "play_card", "card": 1}, "not a seat"),
        ({"seat": 0, "action": "play_card"}, "missing field 'card'"),
        ({"seat": 0, "action": "play_card", "card": "7"}, "expected a whole number"),
        ({"seat": 0, "action": "play_card", "card": True}, "expected a whole number"),
        ({"seat": 0, "action": "play_card", "card": 7, "extra": 1}, "unexpected field"),
    ],
)
def test_malformed_actions_are_refused_with_a_reason(tiny, raw, reason):
    with pytest.raises(MalformedAction, match=reason):
        tiny.actions.parse(raw)


def test_every_action_kind_has_a_json_schema(tiny):
    schemas = tiny.actions.schemas()
    assert set(schemas) == {"play_card", "reveal_card", "adjust_score"}
    play = schemas["play_card"]
    assert play["required"] == ["seat", "action", "card"]
    assert play["properties"]["card"] == {"type": "integer"}
    assert play["additionalProperties"] is False


def test_host_only_flag_marks_corrections():
    assert AdjustScore.host_only and not PlayCard.host_only


def test_options_are_validated_and_defaulted(tiny):
    config = tiny.make_config(3)
    assert config.option("hand_size") == 2
    assert tiny.make_config(3, options={"hand_size": "3"}).option("hand_size") == 3
    with pytest.raises(BadConfig, match="one of 1, 2, 3"):
        tiny.make_config(3, options={"hand_size": 9})
    with pytest.raises(BadConfig, match="no option 'colour'"):
        tiny.make_config(3, options={"colour": "red"})
    with pytest.raises(BadConfig, match="2–4 players"):
        tiny.make_config(5)
    with pytest.raises(BadConfig, match="no chance event"):
        tiny.make_config(2, chance={"dice": "physical"})


def test_physical_mode_can_be_chosen_per_chance_event(tiny):
    config = tiny.make_config(2, "digital", chance={"draw": "physical"})
    assert config.chance_mode("draw") == "physical"
    state = tiny.setup(config, __import__("random").Random(1))
    assert state.deck == () and len(state.unseen) == 12 - 4


def test_illegal_actions_carry_reasons_and_leave_state_alone(tiny):
    config = tiny.make_config(2)
    state = tiny.setup(config, __import__("random").Random(5))
    before = tiny.state_to_json(state)
    not_held = next(c for c in range(1, 13) if c not in state.hands[0])
    with pytest.raises(IllegalAction, match=f"card {not_held} is not in your hand"):
        tiny.apply(state, PlayCard(0, not_held))
    with pytest.raises(NotYourTurn):
        tiny.apply(state, PlayCard(1, state.hands[1][0]))
    with pytest.raises(IllegalAction, match="only the host"):
        tiny.apply(state, AdjustScore(0, 0, 5))
    assert tiny.state_to_json(state) == before
    fixed, log = tiny.apply(state, AdjustScore(HOST, 1, 5))
    assert fixed.scores == (0, 5) and "corrected" in log[0].render()


def test_seats_parse_from_json_and_command_line():
    assert parse_seat(0) == 0 and parse_seat("3") == 3
    assert parse_seat("table") == TABLE and parse_seat("host") == HOST
    for bad in (-1, "x", True, None, 1.5):
        with pytest.raises(ValueError):
            parse_seat(bad)


def test_chance_rng_is_deterministic_and_keyed():
    assert chance_rng(7, "reshuffle", 1).random() == chance_rng(7, "reshuffle", 1).random()
    assert chance_rng(7, "reshuffle", 1).random() != chance_rng(7, "reshuffle", 2).random()


@dataclasses.dataclass(frozen=True)
class Inner:
    a: frozenset[str]
    b: dict[int, tuple[int, ...]]


@dataclasses.dataclass(frozen=True)
class Outer:
    x: tuple[Inner, ...]
    y: int | None = None


def test_serial_round_trips_nested_types():
    value = Outer((Inner(frozenset({"b", "a"}), {3: (1, 2)}),), None)
    data = to_json(value)
    assert data == {"x": [{"a": ["a", "b"], "b": {"3": [1, 2]}}], "y": None}
    assert from_json(Outer, json.loads(json.dumps(data))) == value


def test_registry_knows_the_tiny_game(tiny):
    assert get_game("tiny") is tiny


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_harness_plays_the_tiny_game_to_the_end(tiny, players, mode):
    for seed in range(15):
        result = playout(tiny, players, seed, mode=mode)
        assert result.finished
        assert sum(result.scores["scores"]) == sum(range(1, 13))


def test_harness_catches_a_view_that_leaks(tiny, monkeypatch):
    leaky = type(tiny)()
    monkeypatch.setattr(leaky, "view", lambda state, seat: {"hands": [list(h) for h in state.hands]})
    with pytest.raises(PlayoutFailure, match="reveals something it must not"):
        playout(leaky, 2, 1)


def test_harness_catches_a_nondeterministic_setup(tiny, monkeypatch):
    import random as _random

    broken = type(tiny)()
    original = broken.setup
    monkeypatch.setattr(broken, "setup", lambda config, rng: original(config, _random.Random()))
    with pytest.raises(PlayoutFailure, match="same seed"):
        playout(broken, 2, 1)


def test_selfplay_summarises_games(tiny):
    summary = selfplay(tiny, 3, 10, seed=1)
    assert summary.finished == 10 and not summary.failures
    assert sum(summary.winners_by_seat.values()) >= 10


def test_refusals_carry_a_template_and_params_for_translation():
    exc = IllegalAction("plant {plant} needs a bid of at least {bid}", plant=13, bid=13)
    assert exc.reason == str(exc) == "plant 13 needs a bid of at least 13"
    assert exc.to_json() == {
        "code": "illegal",
        "error": "plant 13 needs a bid of at least 13",
        "template": "plant {plant} needs a bid of at least {bid}",
        "params": {"plant": 13, "bid": 13},
    }
    plain = NotYourTurn("wait for {your} turn")  # without params a brace is just a character
    assert plain.reason == "wait for {your} turn" and plain.params == {}


def test_a_refusal_names_a_seat_param_as_seat_n_counted_from_1_in_english_and_lists_read_as_lists():
    exc = IllegalAction("it is {player}'s turn, not {active}'s", player=2, active=0)
    assert exc.reason == "it is seat 3's turn, not seat 1's"  # never "seat 0": people count seats from 1
    assert exc.params == {"player": 2, "active": 0}  # clients turn the numbers into names
    assert IllegalAction("it is the turn of seats {players}", players=(1, 2)).reason == "it is the turn of seats 1, 2"
