"""The session store: durable log, replay, stale ids, authority, undo rules, snapshots, tags, crash safety."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from tiny_game import AdjustScore, PlayCard, RevealCard

from companion.core import HOST, TABLE, IllegalAction, MalformedAction, NotAllowed, StaleState
from companion.store import Session, Store
from companion.store import db as db_module
from companion.store import session as session_module
from companion.store.db import SCHEMA_VERSION


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "companion.sqlite3")


def _play(session: Session, steps: int, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(0)
    for _ in range(steps):
        seat = session.game.current_seats(session.state)[0]
        action = rng.choice(session.legal_actions(seat))
        session.submit(action, HOST if seat == TABLE else seat, state_id=session.state_id)


def test_store_uses_wal_full_sync_and_a_schema_version(store):
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def _wal(store: Store) -> tuple[int, int, int]:
    """The WAL's frames written so far and its header's checkpoint sequence and first salt (both change each time
    the WAL starts again from its beginning, after a checkpoint)."""
    data = Path(f"{store.path}-wal").read_bytes()
    page = int.from_bytes(data[8:12], "big")
    return (len(data) - 32) // (page + 24), int.from_bytes(data[12:16], "big"), int.from_bytes(data[16:20], "big")


def _commit(store: Store, session: Session, count: int) -> None:
    first = store._db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] + 1
    for seq in range(first, first + count):
        store.append_action(session.id, seq, 0, "host", {"note": "x" * 200})


def test_a_commit_leaves_the_checkpoint_to_the_server_until_the_bound(store, monkeypatch):
    monkeypatch.setattr(db_module, "CHECKPOINT_BOUND", 600)
    session = Session.create(store, "tiny", 2, seed=1)
    _, sequence, salt = _wal(store)
    _commit(store, session, 500)
    frames, *header = _wal(store)
    # Well past SQLite's own 1000 pages, and still the one WAL: no commit stopped to copy it.
    assert frames > 1000 and header == [sequence, salt] and store.checkpoint_wanted
    worker = threading.Thread(target=store.checkpoint)
    worker.start()
    worker.join()
    assert store.commits == 0 and store.checkpoints == 1 and not store.checkpoint_wanted
    _commit(store, session, 1)
    _, *header = _wal(store)
    assert header[0] == sequence + 1 and header[1] != salt  # the next commit started the WAL again
    assert store.log(session.id)[-1].action == {"note": "x" * 200}  # and everything is still there
    _commit(store, session, 598)
    assert _wal(store)[1] == sequence + 1 and store.commits == 599
    _commit(store, session, 1)  # the bound: this commit checkpoints by itself
    _commit(store, session, 1)
    assert _wal(store)[1] == sequence + 2 and store.commits == 1
    assert len(Store(store.path).log(session.id)) == 500 + 1 + 598 + 1 + 1


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(RuntimeError, match="newer companion"):
        Store(path)


def test_session_is_rebuilt_from_the_log(store):
    session = Session.create(store, "tiny", 3, seed=11, names=["Ann", "Bo"])
    _play(session, 5)
    again = Session(store, session.id)
    assert again.state == session.state
    assert again.state_id == session.state_id == 5
    assert [s.name for s in store.seats(session.id)] == ["Ann", "Bo", "Player 3"]
    assert again.verify()


def test_accepted_actions_bump_the_state_id_and_stale_ones_are_refused(store):
    session = Session.create(store, "tiny", 2, seed=1)
    card = session.state.hands[0][0]
    accepted = session.submit({"seat": 0, "action": "play_card", "card": card}, 0, state_id=0)
    assert accepted.state_id == 1
    with pytest.raises(StaleState, match="moved on"):
        session.submit(session.legal_actions(1)[0], 1, state_id=0)
    assert session.state_id == 1 and len(store.log(session.id)) == 1


def test_refused_actions_change_nothing(store):
    session = Session.create(store, "tiny", 2, seed=1)
    before = (session.state, session.state_id)
    with pytest.raises(MalformedAction):
        session.submit("{oops", 0)
    with pytest.raises(IllegalAction):
        session.submit(PlayCard(0, 99), 0)
    with pytest.raises(NotAllowed, match="cannot act for seat 1"):
        session.submit(PlayCard(0, session.state.hands[0][0]), 1)
    with pytest.raises(NotAllowed, match="only the host"):
        session.submit(AdjustScore(HOST, 0, 3), 0)
    assert (session.state, session.state_id) == before
    assert store.log(session.id) == []


def test_host_corrections_are_logged_actions(store):
    session = Session.create(store, "tiny", 2, seed=1)
    session.submit(AdjustScore(HOST, 1, 4), HOST)
    assert session.state.scores == (0, 4)
    assert store.log(session.id)[0].action == {"seat": "host", "action": "adjust_score", "target": 1, "delta": 4}
    assert Session(store, session.id).state.scores == (0, 4)


def test_tokens_are_secret_long_and_identify_their_seat(store):
    session = Session.create(store, "tiny", 3, seed=1)
    seats = store.seats(session.id)
    assert len({s.token for s in seats} | {session.host_token}) == 4
    assert all(len(s.token) >= 22 for s in seats)  # ≥ 128 bits in URL-safe base64
    assert session.seat_for_token(seats[2].token) == 2
    assert session.seat_for_token(session.host_token) == HOST
    with pytest.raises(NotAllowed):
        session.seat_for_token("guess")


def test_a_seat_undoes_its_own_last_action_within_its_turn(store):
    # Physical draws: playing a card leaves the turn open until the table reveals the draw.
    session = Session.create(store, "tiny", 2, seed=4, mode="physical")
    card = session.state.hands[0][0]
    session.submit(PlayCard(0, card), 0)
    assert session.state.awaiting_reveal
    with pytest.raises(NotAllowed, match="seat 1's"):
        session.undo(1)
    session.undo(0)
    assert card in session.state.hands[0] and session.state_id == 2
    log = store.log(session.id)
    assert [(r.kind, r.undone) for r in log] == [("action", True), ("undo", False)]
    assert Session(store, session.id).state == session.state


def test_a_seat_cannot_undo_a_reveal_or_a_finished_turn_but_the_host_can(store):
    session = Session.create(store, "tiny", 2, seed=4, mode="physical")
    session.submit(PlayCard(0, session.state.hands[0][0]), 0)
    reveal = sorted(session.state.unseen)[0]
    session.submit(RevealCard(TABLE, reveal), HOST)
    with pytest.raises(NotAllowed):
        session.undo(0)
    session.undo(HOST)
    assert session.state.awaiting_reveal and reveal in session.state.unseen


def test_digital_draws_cannot_be_undone_by_the_seat(store):
    session = Session.create(store, "tiny", 2, seed=4)
    session.submit(PlayCard(0, session.state.hands[0][0]), 0)
    with pytest.raises(NotAllowed):
        session.undo(0)


def test_stale_undo_is_refused(store):
    session = Session.create(store, "tiny", 2, seed=4)
    _play(session, 2)
    with pytest.raises(StaleState):
        session.undo(HOST, state_id=1)


def test_snapshots_are_only_a_cache(store, monkeypatch):
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 3)
    session = Session.create(store, "tiny", 4, seed=9, options={"hand_size": 3})
    _play(session, 8)
    assert store.latest_snapshot(session.id) is not None
    resumed = Session(store, session.id)
    assert resumed.state == session.state and resumed._base > 0
    # Undo past the snapshot still works: the earlier state is rebuilt from the log.
    for _ in range(3):
        resumed.undo(HOST)
    assert resumed.verify()
    assert Session(store, session.id).state == resumed.state
    store.drop_snapshots(session.id)
    assert Session(store, session.id).state == resumed.state


def test_the_latest_open_session_is_resumed(store):
    first = Session.create(store, "tiny", 2, seed=1)
    second = Session.create(store, "tiny", 2, seed=2)
    assert store.latest_open() == second.id
    second.end()
    assert store.latest_open() == first.id


def test_finished_games_are_marked_over(store):
    session = Session.create(store, "tiny", 2, seed=3)
    while not session.game.is_over(session.state):
        _play(session, 1)
    assert store.session(session.id).status == "over"
    with pytest.raises(IllegalAction, match="over"):
        session.submit(PlayCard(0, 1), 0)
    # The host can still fix a counter the table disagrees with.
    session.submit(AdjustScore(HOST, 0, 1), HOST)
    session.end()
    with pytest.raises(IllegalAction, match="ended"):
        session.submit(AdjustScore(HOST, 0, 1), HOST)


def test_tags_map_uids_to_cards_and_refuse_a_second_card(store):
    store.enroll_tag("04:a1:b2:c3:d4:e5:f6", "tiny", "card-1")
    assert store.lookup_tag("04A1B2C3D4E5F6") == ("tiny", "card-1")
    store.enroll_tag("04A1B2C3D4E5F6", "tiny", "card-1")  # the same again is fine
    with pytest.raises(NotAllowed, match="already enrolled"):
        store.enroll_tag("04A1B2C3D4E5F6", "tiny", "card-2")
    store.enroll_tag("0411223344", "tiny", "card-1")  # a re-stickered card moves to its new tag
    assert store.tags("tiny") == {"0411223344": "card-1"}
    with pytest.raises(NotAllowed, match="not a tag UID"):
        store.enroll_tag("zz", "tiny", "card-3")


CHILD = textwrap.dedent(
    """
    import json, random, sys
    sys.path.insert(0, sys.argv[2])
    import tiny_game
    from companion.core import HOST, TABLE
    from companion.store import Session, Store

    store = Store(sys.argv[1])
    rng = random.Random(int(sys.argv[3]))
    session = None
    while True:
        if session is None or session.game.is_over(session.state):
            session = Session.create(store, "tiny", 4, seed=rng.randrange(1000), mode="physical")
        seat = session.game.current_seats(session.state)[0]
        action = rng.choice(session.legal_actions(seat))
        print("INTENT", session.id, json.dumps(action.to_json()), flush=True)
        session.submit(action, HOST if seat == TABLE else seat)
        print("ACK", session.id, json.dumps(action.to_json()), flush=True)
    """
)


@pytest.mark.parametrize("run", range(6))
def test_sigkill_while_writing_loses_no_acknowledged_action(tmp_path, run):
    path = tmp_path / "crash.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(Path(__file__).parent), str(run)],
        stdout=subprocess.PIPE, text=True,
    )
    assert child.stdout is not None
    acked: dict[int, list[dict]] = {}
    in_flight: tuple[int, dict] | None = None
    os.set_blocking(child.stdout.fileno(), True)
    # The clock starts at the child's first line, so a slow start on a busy machine cannot leave it nothing to do.
    first = child.stdout.readline()
    deadline = time.monotonic() + random.Random(run).uniform(0.3, 1.5)

    def take(line: str) -> None:
        nonlocal in_flight
        if not line.endswith("\n"):
            return  # cut off by the kill: an ack not fully printed was never given
        word, sid, data = line.split(" ", 2)
        if word == "INTENT":
            in_flight = (int(sid), json.loads(data))
        else:
            acked.setdefault(int(sid), []).append(json.loads(data))
            in_flight = None

    take(first)
    while time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        take(line)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert sum(map(len, acked.values())) > 5, "the child wrote too little to test anything"
    # Lines the child printed before it died may still be in the pipe: read them too.
    for line in child.stdout.read().splitlines(keepends=True):
        take(line)

    store = Store(path)
    for row in store.sessions():
        stored = [r.action for r in store.log(row.id) if r.kind == "action" and not r.undone]
        expected = acked.get(row.id, [])
        if stored != expected:
            # The only other outcome allowed: the action in flight was committed before its ack was printed.
            assert in_flight is not None and in_flight[0] == row.id and stored == [*expected, in_flight[1]]
        assert Session(store, row.id).verify()
    for sid in acked:
        store.session(sid)  # every acknowledged session exists
