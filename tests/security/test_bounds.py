"""Bounds and routing: values the game cannot hold are refused, feedback reaches the sender, the finished status
is stored with the last action, names are limited everywhere and never reach a terminal raw."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.core.errors import BadConfig, IllegalAction
from companion.core.registry import get_game
from companion.core.seats import HOST
from companion.store import Session, Store
from companion.testing.harness import choose_actor
from companion.web.hub import Connection, Hub, dumps


class Ear(Connection):
    def __init__(self, viewer: int | None) -> None:
        super().__init__(viewer, self._drop, None, queue_size=10_000)
        self.feedback: list[dict[str, Any]] = []

    async def _drop(self, text: str) -> None:
        return None

    def offer(self, kind: str, text: str, state_id: int | None = None) -> None:
        if kind == "feedback":
            self.feedback.append(json.loads(text))


async def test_feedback_goes_to_the_connection_that_sent_the_action_not_the_seat_named_in_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "route.sqlite3")
    session = Session.create(store, "bohnanza", 3, seed=2)
    hub = Hub(store)
    try:
        live = await hub.live(session.id)
        ears = {viewer: Ear(viewer) for viewer in (0, 1, None)}
        for ear in ears.values():
            live.connections.add(ear)
        move = live.session.legal_actions(live.session.game.current_seats(live.session.state)[0])[0].to_json()
        await live.submit({**move, "seat": 1}, 0, live.session.state_id, "phone", ears[0])
        assert [f["text"] for f in ears[0].feedback] == ["seat 1 cannot act for seat 2"]
        assert ears[1].feedback == []  # the seat named inside the action hears nothing
        assert ears[None].feedback[0]["text"] == "a move was refused"
    finally:
        await hub.close()
        store.close()


def test_a_message_with_a_lone_surrogate_still_encodes() -> None:
    text = dumps({"type": "feedback", "text": "\ud800 unknown"})
    text.encode("utf-8")
    assert json.loads(text)["text"] == "\ud800 unknown"


@pytest.mark.parametrize(("game", "option", "value"), [
    ("bohnanza", "trade_seconds", 10**400), ("bohnanza", "trade_seconds", 3601), ("bohnanza", "trade_seconds", -1),
    ("bohnanza", "offers_per_turn", -1), ("bohnanza", "offers_per_turn", 10**18),
])
def test_options_are_bounded_to_what_the_game_can_hold(game: str, option: str, value: int) -> None:
    with pytest.raises(BadConfig) as refused:
        get_game(game).make_config(3, options={option: value})
    assert len(refused.value.reason) < 120


def test_corrections_are_bounded_and_a_score_never_goes_below_zero(tmp_path: Path) -> None:
    store = Store(tmp_path / "corr.sqlite3")
    try:
        stones = Session.create(store, "shifting_stones", 2, seed=1)
        with pytest.raises(IllegalAction, match="below 0"):
            stones.submit({"seat": HOST, "action": "correct_score", "target": 0, "delta": -1}, HOST)
        with pytest.raises(IllegalAction, match="at most 400"):
            stones.submit({"seat": HOST, "action": "correct_score", "target": 0, "delta": 10**18}, HOST)
        stones.submit({"seat": HOST, "action": "correct_score", "target": 0, "delta": 3}, HOST)
        with pytest.raises(IllegalAction, match="below 0"):
            stones.submit({"seat": HOST, "action": "correct_score", "target": 0, "delta": -4}, HOST)
        grid = Session.create(store, "power_grid", 3, seed=1)
        for delta in (10**18, -(10**18)):
            with pytest.raises(IllegalAction, match="at most 10000"):
                grid.submit({"seat": HOST, "action": "adjust_money", "target": 0, "delta": delta}, HOST)
        assert grid.state_id == 0
    finally:
        store.close()


def test_the_finished_status_is_written_with_the_last_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A separate status update could be lost to a kill after the action's commit: there is none any more."""
    path = tmp_path / "over.sqlite3"
    store = Store(path)
    session = Session.create(store, "shifting_stones", 1, seed=4)
    game = session.game
    import random

    rng = random.Random(1)
    bot = game.bots()["greedy"]

    def no_separate_update(*args: Any) -> None:
        raise AssertionError("the status was written on its own")

    monkeypatch.setattr(Store, "set_status", no_separate_update)
    seen: list[str] = []
    original = Store.append_action

    def append_and_look(self: Store, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        reader = Store(path)  # another connection: what a restart after a kill right here would read
        try:
            seen.append(reader.session(session.id).status)
        finally:
            reader.close()

    monkeypatch.setattr(Store, "append_action", append_and_look)
    while not game.is_over(session.state):
        pick = choose_actor(game, session.state, rng)
        assert pick is not None
        seat, legal = pick
        action = bot.choose(game, session.state, seat, legal, rng) or legal[0]
        session.submit(action, HOST if not isinstance(seat, int) else seat)
    assert seen[-1] == "over" and set(seen[:-1]) == {"open"}
    store.close()


def run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_DB": str(tmp_path / "cli.sqlite3")}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                          timeout=60)


@pytest.mark.parametrize("name", ["A" * 5000, "Ann\x1b[2J\x07", "Bo\nCy", "   "])
def test_names_on_the_command_line_are_limited_and_never_printed_raw(tmp_path: Path, name: str) -> None:
    result = run_cli(tmp_path, "new", "bohnanza", "-p", "3", "--names", name, "Bo", "Cy")
    assert result.returncode != 0
    out = result.stdout + result.stderr
    assert "\x1b" not in out and "\x07" not in out and "A" * 41 not in out
    assert "name" in out


def test_a_stored_name_with_control_characters_is_never_printed_raw(tmp_path: Path) -> None:
    """A store written before names were checked: listing it prints U+FFFD where an escape sequence was."""
    store = Store(tmp_path / "cli.sqlite3")
    session = Session.create(store, "bohnanza", 3, seed=1)
    store.update_seat(session.id, 0, name="Ann\x1b[2J\x07")
    store.close()
    result = run_cli(tmp_path, "list")
    assert result.returncode == 0, result.stderr
    assert "Ann\ufffd[2J\ufffd" in result.stdout and "\x1b" not in result.stdout and "\x07" not in result.stdout
