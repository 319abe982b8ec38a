"""The table's checklist and sentence: board jobs stay until ticked, `job_done` changes no game state and survives a
restart and an undo, a what-to-do sentence for every phase of every game in both chance modes, players named."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion.core import HOST, TABLE, IllegalAction
from companion.core.registry import get_game
from companion.i18n import SEAT_ARGS, SEAT_LIST_ARGS
from companion.play.router import Act, Refuse, Router, key_press
from companion.store import Session, Store
from companion.store import session as session_module

NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus"]
GAMES = (("power_grid", 3), ("power_grid", 2), ("bohnanza", 2), ("bohnanza", 4), ("shifting_stones", 1),
         ("shifting_stones", 3))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "companion.sqlite3")


def step(session: Session, rng: random.Random) -> bool:
    """One random legal action of someone who may act; False when nobody can."""
    seats = [s for s in session.game.current_seats(session.state) if session.legal_actions(s)]
    if not seats:
        return False
    seat = rng.choice(seats)
    session.submit(rng.choice(session.legal_actions(seat)), HOST if seat in (TABLE, HOST) else seat)
    return True


def play(session: Session, steps: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if session.game.is_over(session.state) or not step(session, rng):
            return


def test_board_jobs_stay_on_the_checklist_until_ticked(store):
    session = Session.create(store, "power_grid", 3, seed=4, names=NAMES[:3])
    first = session.view(None)["board_jobs"]
    assert first and all(not j["done"] for j in first)
    assert {"id", "text", "template", "params", "done"} <= set(first[0])
    play(session, 40, seed=1)
    later = session.view(None)["board_jobs"]
    # Nobody ticked anything: every job of the setup is still there, and more came.
    assert [j["id"] for j in later[: len(first)]] == [j["id"] for j in first]
    assert len(later) > len(first)
    assert any(j["template"].startswith("Give plant") for j in later)


def test_the_checklist_is_in_the_public_envelope_and_not_in_a_seats(store):
    """No phone shows the table's checklist: a seat's envelope leaves it out (it was a quarter of each phone's view,
    sent after every change); the display's public envelope keeps it, and a seat may still tick a job it read
    there."""
    session = Session.create(store, "power_grid", 3, seed=4, names=NAMES[:3])
    jobs = session.view(None)["board_jobs"]
    assert jobs
    for seat in range(3):
        envelope = session.view(seat)
        assert "board_jobs" not in envelope
        assert envelope["now"] and envelope["log"] is not None and "legal" in envelope
    session.submit({"seat": 1, "action": "job_done", "job": jobs[0]["id"]}, 1)
    assert next(j for j in session.view(None)["board_jobs"] if j["id"] == jobs[0]["id"])["done"]


def test_a_job_naming_a_player_is_worded_again_after_a_rename_and_a_tick_keeps_its_words(store):
    """The checklist's entries are kept from one change to the next (wording every open job again was half of
    each change's first view); a new name or a tick must still show at once."""
    session = Session.create(store, "power_grid", 3, seed=4, names=NAMES[:3])
    play(session, 40, seed=1)
    jobs = session.view(None)["board_jobs"]
    named = next(j for j in jobs if "player" in j["params"] and isinstance(j["params"]["player"], int))
    old = NAMES[named["params"]["player"]]
    assert old in named["text"]
    store.update_seat(session.id, named["params"]["player"], name="Zed")
    again = next(j for j in session.view(None)["board_jobs"] if j["id"] == named["id"])
    assert "Zed" in again["text"] and old not in again["text"]
    session.submit({"action": "job_done", "seat": HOST, "job": named["id"]}, HOST)
    ticked = next(j for j in session.view(None)["board_jobs"] if j["id"] == named["id"])
    assert ticked["done"] is True and ticked["text"] == again["text"]
    assert all(not j["done"] for j in session.view(None)["board_jobs"] if j["id"] != named["id"])


def test_a_seats_view_carries_the_last_ten_ticker_lines_and_the_public_view_thirty(store):
    """A phone shows the last six lines; the display as many as fit. Both end with the same newest lines, and
    the ticker lines carry their template, arguments and text (not the arguments twice)."""
    session = Session.create(store, "bohnanza", 4, seed=3, names=NAMES[:4])
    play(session, 120, seed=2)
    public = session.view(None)["log"]
    seat = session.view(1)["log"]
    assert len(public) == session_module.LOG_SHOWN == 30
    assert len(seat) == session_module.SEAT_LOG_SHOWN == 10
    assert seat == public[-10:]
    assert all(set(line) == {"template", "args", "text"} for line in public)


def test_job_done_changes_no_game_state_and_survives_a_restart(store):
    session = Session.create(store, "power_grid", 3, seed=4, names=NAMES[:3], mode="physical")
    play(session, 25, seed=2)
    state, state_id = session.state, session.state_id
    job = session.open_jobs()[0]
    session.submit({"seat": 1, "action": "job_done", "job": job.id}, 1, state_id=state_id)
    assert session.state == state  # the same game state object: nothing of the game moved
    assert session.state_id == state_id + 1
    shown = {j["id"]: j["done"] for j in session.view(None)["board_jobs"]}
    assert shown[job.id] is True
    assert session.verify()
    again = Session(store, session.id)
    assert again.state == state
    assert again.done_jobs() == {job.id: 1}
    assert [j.id for j in again.open_jobs()] == [j.id for j in session.open_jobs()]
    # The game's own log of moves is untouched: replaying the game's actions alone gives the same state.
    assert again.live_actions() == session.live_actions()


def test_a_job_tick_is_undone_like_any_action(store):
    session = Session.create(store, "power_grid", 3, seed=4, names=NAMES[:3])
    job = session.open_jobs()[0]
    session.submit({"seat": "table", "action": "job_done", "job": job.id}, TABLE)
    assert job.id not in [j.id for j in session.open_jobs()]
    with pytest.raises(Exception, match="only the host"):
        session.undo(2)  # another seat cannot take the table's tick back
    session.undo(TABLE)
    assert job.id in [j.id for j in session.open_jobs()]
    assert Session(store, session.id).done_jobs() == {}


def test_undoing_the_action_that_set_a_job_takes_the_job_away(store):
    session = Session.create(store, "power_grid", 3, seed=4, names=NAMES[:3])
    before = [j.id for j in session.open_jobs()]
    play(session, 3, seed=5)
    added = [j.id for j in session.open_jobs() if j.id not in before]
    while session.live_actions():
        session.undo(HOST)
    assert [j.id for j in session.open_jobs()] == before
    assert not set(added) & {j.id for j in session.open_jobs()}


def test_a_bad_job_is_refused_and_nothing_is_logged(store):
    session = Session.create(store, "bohnanza", 3, seed=4, names=NAMES[:3])
    play(session, 30, seed=3)
    job = session.open_jobs()[0]
    rows = len(store.log(session.id))
    with pytest.raises(IllegalAction, match="no board job"):
        session.submit({"seat": 0, "action": "job_done", "job": "999-1"}, 0)
    session.submit({"seat": 0, "action": "job_done", "job": job.id}, 0)
    with pytest.raises(IllegalAction, match="already done"):
        session.submit({"seat": 2, "action": "job_done", "job": job.id}, 2)
    with pytest.raises(Exception, match="cannot act for"):
        session.submit({"seat": 1, "action": "job_done", "job": "1-1"}, 0)
    assert len(store.log(session.id)) == rows + 1


def test_jobs_survive_a_reload_from_a_snapshot(store, monkeypatch):
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 10)
    session = Session.create(store, "shifting_stones", 2, seed=9, names=NAMES[:2])
    play(session, 12, seed=4)
    session.submit({"seat": "host", "action": "job_done", "job": session.open_jobs()[1].id}, HOST)
    play(session, 30, seed=6)
    assert store.latest_snapshot(session.id) is not None
    again = Session(store, session.id)
    assert again.view(None)["board_jobs"] == session.view(None)["board_jobs"]
    # An undo reaching back before the snapshot rebuilds the checklist from the log.
    while len(again.live_entries()) > 5:
        again.undo(HOST)
    fresh = Session(store, session.id)
    assert again.view(None)["board_jobs"] == fresh.view(None)["board_jobs"]


def test_a_snapshot_goes_to_disk_with_its_action_in_one_commit_and_keeps_that_actions_jobs(store, monkeypatch):
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 1)
    session = Session.create(store, "shifting_stones", 2, seed=9, names=NAMES[:2])
    commits: list[str] = []
    store._db.set_trace_callback(lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    try:
        for step in range(12):
            before = len(commits)
            play(session, 1, seed=step)
            assert len(commits) - before == 1  # the action and the snapshot of the state after it: one commit
            snapshot = store.latest_snapshot(session.id)
            assert snapshot is not None and snapshot[1] == len(session.live_entries())
            # The snapshot holds the jobs the action itself set: a reload from it shows the same checklist.
            assert Session(store, session.id).view(None)["board_jobs"] == session.view(None)["board_jobs"]
    finally:
        store._db.set_trace_callback(None)


def test_ok_on_the_controller_ticks_the_oldest_job_when_it_means_nothing_else(store):
    session = Session.create(store, "bohnanza", 3, seed=2, names=NAMES[:3])
    play(session, 60, seed=8)
    router = Router(session)
    oldest = session.open_jobs()[0].id
    decision = router.decide_press(key_press("ok"))
    assert isinstance(decision, Act)
    assert decision.action.to_json() == {"seat": "table", "action": "job_done", "job": oldest}
    session.submit(decision.action, decision.actor, decision.state_id)
    assert oldest not in [j.id for j in session.open_jobs()]


def test_ok_keeps_its_meaning_where_the_game_gives_it_one(store):
    session = Session.create(store, "power_grid", 3, seed=2, names=NAMES[:3])
    assert session.open_jobs()  # the setup jobs are open, yet OK chooses the proposed regions
    decision = Router(session).decide_press(key_press("ok"))
    assert isinstance(decision, Act) and decision.action.kind == "choose_regions"


def test_ok_with_nothing_open_is_still_refused(store):
    session = Session.create(store, "shifting_stones", 2, seed=2, names=NAMES[:2])
    for job in session.open_jobs():
        session.submit({"seat": "table", "action": "job_done", "job": job.id}, TABLE)
    assert isinstance(Router(session).decide_press(key_press("ok")), Refuse)


SEAT_WORDS = re.compile(r"\b(seat|seats|player|Player)\s+\d")


def check_named(entry: dict[str, Any], names: list[str]) -> None:
    """A text people read: players by name, never a seat number."""
    text = entry["text"]
    assert text.strip(), entry
    assert not SEAT_WORDS.search(text), text
    params = entry.get("params", entry.get("args", {}))
    for key, value in params.items():
        if key in SEAT_ARGS and isinstance(value, int) and not isinstance(value, bool):
            assert names[value] in text, (text, params)
        if key in SEAT_LIST_ARGS and isinstance(value, list | tuple):
            for seat in value:
                if isinstance(seat, int):
                    assert names[seat] in text, (text, params)


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_every_phase_says_what_to_do_and_names_players(store, game, players, mode):
    names = NAMES[:players]
    templates: set[str] = set()
    for seed in (1, 2):
        session = Session.create(store, game, players, seed=seed, mode=mode, names=names)
        rng = random.Random(seed)
        for _ in range(300):
            view = session.view(None)
            now = view["now"]
            check_named(now, names)
            templates.add(now["template"])
            current = set(session.game.current_seats(session.state))
            assert set(now["acting"]) <= current, (now, current)
            assert not set(now["may"]) & set(now["acting"])
            if session.game.is_over(session.state):
                assert now["acting"] == []
                break
            assert now["acting"], now  # someone is named as acting whenever the game waits
            if not step(session, rng):
                break
        view = session.view(None)
        for entry in view["log"] + view["board_jobs"]:
            check_named(entry, names)
        for seat in range(players):
            for entry in session.view(seat)["log"]:
                check_named(entry, names)
    assert len(templates) >= 2  # the sentence changes with the phase


def test_the_generic_sentence_names_the_player(tiny, store):
    session = Session.create(store, "tiny", 3, seed=1, names=NAMES[:3])
    now = session.view(None)["now"]
    assert now["text"] and now["acting"]
    check_named(now, NAMES[:3])
    assert get_game("tiny").now(session.state).acting == tuple(now["acting"])
