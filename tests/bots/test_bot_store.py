"""Bot seats in the store and on the command line: stored with the session, 1-based seats, bad input refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.cli.sessions import parse_bots
from companion.core.errors import BadConfig, NotAllowed
from companion.store import Session, Store


def test_a_bot_seat_is_stored_with_the_session(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    session = Session.create(store, "bohnanza", 4, seed=1, bots={1: "strong", 3: "easy"})
    store.close()
    again = Session(Store(tmp_path / "s.sqlite3"), session.id)
    assert again.bots() == {1: "strong", 3: "easy"}
    again.set_bot(1, None)
    again.set_bot(0, "normal")
    assert Session(Store(tmp_path / "s.sqlite3"), session.id).bots() == {0: "normal", 3: "easy"}
    assert [p["bot"] for p in again.view(None)["players"]] == ["normal", None, None, "easy"]
    assert any("played by a bot" in m.template for m in again.ticker)


def test_bad_bot_seats_are_refused_and_change_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    with pytest.raises(NotAllowed):
        Session.create(store, "bohnanza", 3, bots={3: "strong"})
    with pytest.raises(NotAllowed):
        Session.create(store, "bohnanza", 3, bots={0: "grandmaster"})
    assert store.sessions() == []
    session = Session.create(store, "bohnanza", 3)
    with pytest.raises(NotAllowed):
        session.set_bot(0, "strong", actor=0)
    with pytest.raises(NotAllowed):
        session.set_bot(-1, "strong")
    assert session.bots() == {}


def test_a_store_of_schema_1_gains_the_bot_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = Store(path)
    sid = Session.create(store, "shifting_stones", 2, seed=3).id
    store.close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE seats DROP COLUMN bot")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    store = Store(path)
    assert [s.bot for s in store.seats(sid)] == [None, None]
    store.set_bot(sid, 1, "easy")
    assert [s.bot for s in store.seats(sid)] == [None, "easy"]


def test_companion_new_takes_bot_seats_counted_from_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.sqlite3")
    assert main(["new", "power_grid", "-p", "3", "--bot", "2=strong", "--bot", "3=easy", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "played by a bot (strong)" in out and "played by a bot (easy)" in out
    store = Store(db)
    assert [s.bot for s in store.seats(store.sessions()[0].id)] == [None, "strong", "easy"]
    for wrong in ("0=strong", "4=strong", "2=grandmaster", "two=easy"):
        assert main(["new", "power_grid", "-p", "3", "--bot", wrong, "--db", db]) == 1
        assert "--bot" in capsys.readouterr().err
        with pytest.raises(BadConfig):
            parse_bots([wrong], 3)
    assert len(store.sessions()) == 1
