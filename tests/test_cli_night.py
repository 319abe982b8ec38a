"""`companion summary` (JSON, PNG, HTML) and `companion history` on finished games of each title, players named."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pygame
import pytest
from test_cli import run

from companion.core import HOST, TABLE
from companion.store import Session, Store

NAMES = ["Ann", "Bob", "Cyd"]
GAMES = (("power_grid", 3), ("bohnanza", 2), ("shifting_stones", 2))


def finish(db: Path, game: str, players: int, seed: int) -> int:
    store = Store(db)
    try:
        session = Session.create(store, game, players, seed=seed, names=NAMES[:players])
        rng = random.Random(seed)
        while not session.game.is_over(session.state):
            seats = [s for s in session.game.current_seats(session.state) if session.legal_actions(s)]
            seat = rng.choice(seats)
            legal = session.legal_actions(seat)
            scoring = [a for a in legal if a.kind == "score_card"]
            session.submit(rng.choice(scoring or legal), HOST if seat in (TABLE, HOST) else seat)
        return session.id
    finally:
        store.close()


@pytest.fixture(scope="module")
def finished_db(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    db = tmp_path_factory.mktemp("night") / "companion.sqlite3"
    ids = {game: finish(db, game, players, seed=3) for game, players in GAMES}
    Session.create(Store(db), "bohnanza", 3, seed=1, names=NAMES)  # unfinished: not in the history
    return db, ids


def test_history_lists_the_finished_games_with_players_scores_and_winner(finished_db):
    db, ids = finished_db
    out = run("history", db=db).stdout
    lines = out.strip().splitlines()
    assert len(lines) == 3
    for sid in ids.values():
        line = next(line for line in lines if line.startswith(f"{sid} "))
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", line) and "won: " in line
        assert "Ann" in line and "Bob" in line and not re.search(r"\bseat \d", line)
    data = json.loads(run("history", "--json", db=db).stdout)
    assert sorted(g["id"] for g in data) == sorted(ids.values())
    assert all(g["winners"] and set(g["winners"]) <= set(NAMES) for g in data)


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_summary_as_json_png_and_html(finished_db, game, tmp_path, artifacts):
    db, ids = finished_db
    sid = ids[game]
    data = json.loads(run("summary", str(sid), db=db).stdout)
    assert data["over"] and data["ranking"][0]["winner"] and data["series"]
    png = artifacts / f"summary_{game}.png"
    out = run("summary", str(sid), "--out", str(png), db=db).stdout
    assert str(png) in out
    picture = pygame.image.load(str(png))
    assert picture.get_width() == 1000 and picture.get_height() > 300
    page = tmp_path / "summary.html"
    run("summary", str(sid), "--out", str(page), db=db)
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == len(data["series"]) and "Ann" in text and "<script" not in text
    bad = run("summary", str(sid), "--out", str(tmp_path / "x.txt"), db=db, check=False)
    assert bad.returncode == 2 and ".png or .html" in bad.stdout
