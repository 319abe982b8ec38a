"""`companion play` on the command line: which game it plays (resume, new, lobby), its checks, and docs/play.md's
input tables, which must say what the router does."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import build_parser
from companion.core.errors import BadConfig, MalformedAction
from companion.play.docs import tables
from companion.play.runner import PlayOptions, choose_session, event_from_json
from companion.store import Session, Store

SECTION = Path(__file__).resolve().parents[2] / "docs" / "play.md"


def options(tmp_path, **kw) -> PlayOptions:
    return PlayOptions(db_path=tmp_path / "t.sqlite3", **kw)


def test_with_nothing_open_and_no_game_named_play_opens_the_lobby(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    assert choose_session(store, options(tmp_path)) == (None, "")


def test_a_game_named_is_new_the_first_time_and_resumed_after_a_crash(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    sid, how = choose_session(store, options(tmp_path, game="bohnanza", players=3, seed=2))
    assert how.startswith(f"new game {sid}: Bohnanza, 3 players")
    session = Session(store, sid)
    session.submit(session.legal_actions(session.state.active)[0], session.state.active)
    again, how = choose_session(store, options(tmp_path, game="bohnanza", players=3))
    assert again == sid and "resuming game" in how and "1 actions so far" in how
    assert choose_session(store, options(tmp_path)) == (sid, how.replace(" (--new starts another)", ""))
    assert choose_session(store, options(tmp_path, game="bohnanza"))[0] == sid  # no player count: the open one


def test_new_another_player_count_or_mode_starts_another_game(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    first, _ = choose_session(store, options(tmp_path, game="power_grid", players=3))
    assert choose_session(store, options(tmp_path, game="power_grid", players=3, new=True))[0] != first
    assert choose_session(store, options(tmp_path, game="power_grid", players=4))[0] != first
    assert choose_session(store, options(tmp_path, game="power_grid", players=3, mode="physical"))[0] != first


def test_a_stored_game_is_played_by_its_id_and_an_unknown_id_is_refused(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    sid, _ = choose_session(store, options(tmp_path, game="shifting_stones", players=2))
    assert choose_session(store, options(tmp_path, game=str(sid)))[0] == sid
    with pytest.raises(BadConfig, match="there is no game 99"):
        choose_session(store, options(tmp_path, game="99"))


def test_a_new_game_without_a_player_count_seats_four_or_the_games_limit(tmp_path):
    store = Store(tmp_path / "t.sqlite3")
    sid, how = choose_session(store, options(tmp_path, game="power_grid"))
    assert "4 players" in how
    assert Store(tmp_path / "t.sqlite3").session(sid).config["players"] == 4


def test_the_command_line_reaches_the_options():
    args = build_parser().parse_args(["play", "power_grid", "-p", "5", "--mode", "physical", "--set", "map=usa",
                                      "--port", "9000", "--bind", "127.0.0.1", "--no-display", "--fullscreen"])
    assert (args.game, args.players, args.mode, args.set, args.port) == ("power_grid", 5, "physical", ["map=usa"],
                                                                         9000)
    assert args.no_display and args.fullscreen and args.func.__name__ == "cmd_play"
    assert build_parser().parse_args(["play"]).game is None


def test_a_simulated_controller_event_is_checked_before_it_reaches_the_router():
    assert event_from_json({"kind": "button", "button": 3, "action": "long"}).action == "long"
    assert event_from_json({"kind": "key", "key": "ok"}).key == "ok"
    assert event_from_json({"kind": "tag", "uid": "04a1b2"}).uid == "04A1B2"
    for bad in ({"kind": "button", "button": 7}, {"kind": "button", "button": True},
                {"kind": "key", "key": "0"}, {"kind": "key", "key": "5", "action": "down"}, {"kind": "led"},
                {"kind": "tag"}):
        with pytest.raises(MalformedAction):
            event_from_json(bad)


def test_the_readme_section_has_the_input_table_of_every_game_as_the_router_declares_it():
    assert tables() in SECTION.read_text()
