"""The command line end to end, as a subprocess, with the tiny game registered through $COMPANION_GAMES."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


def run(*args: str, stdin: str = "", db: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COMPANION_GAMES="tiny_game", PYTHONPATH=str(TESTS))
    if db is not None:
        env["COMPANION_DB"] = str(db)
    result = subprocess.run(
        [sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True, env=env, timeout=120
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_help_lists_every_command():
    out = run("--help").stdout
    for command in ("games", "actions", "new", "list", "show", "undo", "export", "script", "selfplay"):
        assert command in out


def test_games_lists_players_and_options():
    out = run("games").stdout
    assert "tiny: Tiny, 2–4 players" in out and "hand_size" in out
    data = json.loads(run("games", "--json").stdout)
    assert {"name": "hand_size", "type": "int", "default": 2, "help": "cards in each hand", "choices": [1, 2, 3],
            "minimum": -1_000_000, "maximum": 1_000_000} in next(g for g in data if g["name"] == "tiny")["options"]


def test_actions_prints_schemas():
    schemas = json.loads(run("actions", "tiny").stdout)
    assert schemas["play_card"]["required"] == ["seat", "action", "card"]


def test_script_answers_every_line_and_reports_the_end():
    import random

    from tiny_game import GAME

    state = GAME.setup(GAME.make_config(2), random.Random(5))
    first = state.hands[0][0]
    lines = [
        "# comments and blank lines are skipped",
        "",
        json.dumps({"seat": 0, "action": "play_card", "card": first}),
        json.dumps({"seat": 0, "action": "play_card", "card": first}),
        "not json",
        json.dumps({"seat": 0, "action": "fly"}),
    ]
    out = run("script", "tiny", "--players", "2", "--seed", "5", "--final", stdin="\n".join(lines)).stdout
    results = [json.loads(line) for line in out.splitlines()]
    assert results[0]["ok"] and results[0]["state_id"] == 1
    assert results[1] == {"ok": False, "error": "it is not 0's turn", "code": "not_your_turn"}
    assert results[2]["code"] == "malformed"
    assert "unknown action 'fly'" in results[3]["error"]
    final = results[4]
    assert final["final"] and final["over"] is False
    assert final["public"]["scores"] == [first, 0]
    assert "hand" not in final["public"] and len(final["seats"]) == 2


def test_script_plays_a_whole_game_to_its_end():
    from tiny_game import GAME

    from companion.testing.harness import playout

    result = playout(GAME, 3, 8, check=False)
    text = "\n".join(json.dumps(a.to_json()) for a in result.actions)
    out = run("script", "tiny", "--players", "3", "--seed", "8", "--final", stdin=text).stdout.splitlines()
    assert all(json.loads(line)["ok"] for line in out[:-1])
    final = json.loads(out[-1])
    assert final["over"] and final["scores"] == result.scores


def test_selfplay_summarises_and_exits_zero():
    out = run("selfplay", "tiny", "--players", "3", "--games", "20", "--seed", "1", "--check").stdout
    assert "Tiny: 20/20 games finished" in out and "games/s" in out and "winners by seat" in out


def test_selfplay_exits_non_zero_for_an_unknown_bot():
    result = run("selfplay", "tiny", "--players", "2", "--bot", "genius", check=False)
    assert result.returncode != 0 and "no bot 'genius'" in result.stderr


def test_new_list_show_undo_export_round_trip(tmp_path):
    db = tmp_path / "c.sqlite3"
    out = run("new", "tiny", "--players", "2", "--seed", "3", "--names", "Ann", "Bo", db=db).stdout
    assert out.startswith("session 1: Tiny") and "seat 2 (Bo)" in out
    assert "1\ttiny\topen\t0 actions\tAnn, Bo" in run("list", db=db).stdout
    public = json.loads(run("show", "1", db=db).stdout)
    assert public["state_id"] == 0 and "hand" not in public["view"]
    private = json.loads(run("show", "1", "--seat", "0", db=db).stdout)
    assert len(private["view"]["hand"]) == 2 and private["legal"]

    from companion.store import Session, Store

    session = Session(Store(db), 1)
    session.submit(session.legal_actions(0)[0], 0)
    lines = [json.loads(line) for line in run("export", "1", db=db).stdout.splitlines()]
    assert lines[0]["game"] == "tiny" and lines[1]["action"]["action"] == "play_card"
    assert "undone; state 2" in run("undo", "1", db=db).stdout
    result = run("undo", "1", db=db, check=False)
    assert result.returncode == 1 and "nothing to undo" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "tiny", "--players", "9"), "2–4 players"),
        (("new", "tiny", "--players", "2", "--set", "hand_size=7"), "one of 1, 2, 3"),
        (("new", "tiny", "--players", "2", "--set", "nonsense"), "OPTION=VALUE"),
        (("new", "chess", "--players", "2"), "no game called 'chess'"),
    ],
)
def test_bad_arguments_get_clear_errors(tmp_path, args, message):
    result = run(*args, db=tmp_path / "x.sqlite3", check=False)
    assert result.returncode == 1 and message in result.stderr
