"""The SQLite store: sessions, the append-only action log, snapshots, seat tokens and NFC tags."""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.errors import NotAllowed

SCHEMA_VERSION = 3

_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,          -- GameConfig as JSON: players, mode, options, chance
    seed INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'over', 'ended')),
    host_token TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE seats (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    colour TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    lang TEXT NOT NULL DEFAULT 'en',
    bot TEXT,                      -- the bot level playing this seat (easy, normal, strong), NULL: a person
    PRIMARY KEY (session_id, seat)
);
CREATE TABLE actions (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    state_id INTEGER NOT NULL,
    seat TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
    action TEXT NOT NULL,
    time REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE snapshots (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,          -- the last action row included
    live_count INTEGER NOT NULL,   -- how many live actions the state contains
    state TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
CREATE TABLE tags (
    uid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    card TEXT NOT NULL,
    enrolled REAL NOT NULL,
    UNIQUE (game, card)
);
CREATE TABLE enrolments (
    game TEXT PRIMARY KEY,         -- one guided enrolment of a deck per game, resumable
    state TEXT NOT NULL,           -- the cards asked for, the steps taken, the options (JSON)
    updated REAL NOT NULL
);
"""

_ENROLMENTS = """CREATE TABLE IF NOT EXISTS enrolments (
    game TEXT PRIMARY KEY, state TEXT NOT NULL, updated REAL NOT NULL
)"""

_INSERT_SNAPSHOT = "INSERT OR REPLACE INTO snapshots (session_id, seq, live_count, state) VALUES (?, ?, ?, ?)"
_INSERT_ACTION = (
    "INSERT INTO actions (session_id, seq, state_id, seat, kind, action, time) VALUES (?, ?, ?, ?, ?, ?, ?)"
)

# Copying the WAL back into the database file (a checkpoint) is left to `Store.checkpoint`, which the live server
# runs in a thread once a tap's views are out. SQLite's automatic one ran inside whichever commit took the WAL past
# 1000 pages: that tap's commit waited 1–3 ms more (up to 20 measured) for the copy and its fsync. The WAL a
# checkpoint emptied is written again from its start, into blocks the file already has: a commit then costs less
# than one that grows the file (p50 0.3 against 0.5 ms, measured with synchronous=FULL on the development machine).
CHECKPOINT_WANTED = 64  # commits since the last checkpoint: the server asks for one after the tap
CHECKPOINT_BOUND = 1000  # commits with none (a Store with no server to run them): the commit runs one itself

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2")
COLOUR_NAMES = ("red", "blue", "green", "orange", "purple", "brown", "pink")


def default_path() -> Path:
    """`$COMPANION_DB`, else the XDG data directory (`~/.local/share/companion/companion.sqlite3`)."""
    if os.environ.get("COMPANION_DB"):
        return Path(os.environ["COMPANION_DB"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "companion" / "companion.sqlite3"


def new_token() -> str:
    """A secret of 192 bits, URL-safe."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class SessionRow:
    id: int
    game: str
    config: dict[str, Any]
    seed: int
    status: str
    host_token: str
    created: float
    updated: float


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    colour: str
    token: str
    lang: str
    bot: str | None = None


@dataclass(frozen=True)
class LogRow:
    seq: int
    state_id: int
    seat: str
    kind: str
    action: dict[str, Any]
    time: float
    undone: bool


class Store:
    """One SQLite file in WAL mode with synchronous=FULL: a commit that returned is on disk."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=10)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self.commits = 0  # commits since the last checkpoint
        self.checkpoints = 0  # checkpoints run by `checkpoint`, in whichever thread
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointing = threading.Lock()
        self._closed = False
        self._migrate()

    @classmethod
    def default(cls) -> Store:
        return cls(default_path())

    def close(self) -> None:
        with self._checkpointing:
            self._closed = True
            if self._checkpointer is not None:
                self._checkpointer.close()
                self._checkpointer = None
        with self._lock:
            self._db.close()

    @property
    def checkpoint_wanted(self) -> bool:
        """Whether enough has been committed since the last checkpoint for one to be worth running now."""
        return self.commits >= CHECKPOINT_WANTED and str(self.path) != ":memory:"

    def checkpoint(self) -> None:
        """Copy the WAL into the database file, from any thread, without holding up the store: it runs on a
        connection of its own (SQLite lets one checkpoint while another writes, and Python's sqlite3 lets go of
        the interpreter while SQLite works), and PASSIVE copies only what no reader or writer is using. The next
        commit then starts the WAL again from its start."""
        if str(self.path) == ":memory:":
            return
        with self._checkpointing:
            if self._closed:
                return
            self.commits = 0
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(str(self.path), check_same_thread=False,
                                                     isolation_level=None, timeout=10)
            self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.checkpoints += 1

    def _migrate(self) -> None:
        with self._lock:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path} was written by a newer companion (schema {version}, this one knows {SCHEMA_VERSION})"
                )
            if version == 0:
                with self.transaction():
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                return
            if version < 2:
                with self.transaction():
                    self._db.execute("ALTER TABLE seats ADD COLUMN bot TEXT")
                    self._db.execute("PRAGMA user_version=2")
            if version < 3:
                with self.transaction():
                    self._db.execute(_ENROLMENTS)
                    self._db.execute("PRAGMA user_version=3")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT; on any error everything is rolled back."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self.commits += 1
            if self.commits >= CHECKPOINT_BOUND:
                # Nobody ran one in time: this commit does, as SQLite's automatic checkpoint would have.
                self.commits = 0
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    # -- sessions -----------------------------------------------------------------------------------
    def create_session(
        self, game: str, config: dict[str, Any], seed: int, names: list[str], colours: list[str] | None = None
    ) -> int:
        now = time.time()
        colours = colours or [COLOURS[i % len(COLOURS)] for i in range(len(names))]
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO sessions (game, config, seed, host_token, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(config, sort_keys=True), seed, new_token(), now, now),
            )
            sid = int(cur.lastrowid or 0)
            for seat, (name, colour) in enumerate(zip(names, colours)):
                db.execute(
                    "INSERT INTO seats (session_id, seat, name, colour, token) VALUES (?, ?, ?, ?, ?)",
                    (sid, seat, name, colour, new_token()),
                )
        return sid

    def session(self, sid: int) -> SessionRow:
        with self._lock:
            row = self._db.execute("SELECT * FROM sessions WHERE id = ?", (sid,)).fetchone()
        if row is None:
            raise KeyError(f"no session {sid}")
        return SessionRow(
            row["id"], row["game"], json.loads(row["config"]), row["seed"], row["status"], row["host_token"],
            row["created"], row["updated"],
        )

    def sessions(self) -> list[SessionRow]:
        with self._lock:
            ids = [r[0] for r in self._db.execute("SELECT id FROM sessions ORDER BY id")]
        return [self.session(i) for i in ids]

    def latest_open(self, game: str | None = None) -> int | None:
        """The open session touched most recently (what `companion play` resumes)."""
        query = "SELECT id FROM sessions WHERE status = 'open'"
        args: tuple[Any, ...] = ()
        if game:
            query += " AND game = ?"
            args = (game,)
        with self._lock:
            row = self._db.execute(query + " ORDER BY updated DESC, id DESC LIMIT 1", args).fetchone()
        return None if row is None else int(row[0])

    def set_status(self, sid: int, status: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE sessions SET status = ?, updated = ? WHERE id = ?", (status, time.time(), sid))

    def seats(self, sid: int) -> list[SeatRow]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM seats WHERE session_id = ? ORDER BY seat", (sid,)).fetchall()
        return [SeatRow(r["seat"], r["name"], r["colour"], r["token"], r["lang"], r["bot"]) for r in rows]

    def set_bot(self, sid: int, seat: int, level: str | None) -> None:
        """Hand a seat to a bot of `level`, or (None) back to a person."""
        with self.transaction() as db:
            changed = db.execute("UPDATE seats SET bot = ? WHERE session_id = ? AND seat = ?",
                                 (level, sid, seat)).rowcount
            if changed != 1:
                raise NotAllowed("game {number} has no {player}", number=sid, player=seat)

    def update_seat(self, sid: int, seat: int, *, name: str | None = None, colour: str | None = None,
                    lang: str | None = None) -> None:
        with self.transaction() as db:
            for column, value in (("name", name), ("colour", colour), ("lang", lang)):
                if value is not None:
                    db.execute(f"UPDATE seats SET {column} = ? WHERE session_id = ? AND seat = ?", (value, sid, seat))

    # -- the action log ---------------------------------------------------------------------------
    def log(self, sid: int) -> list[LogRow]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM actions WHERE session_id = ? ORDER BY seq", (sid,)).fetchall()
        return [
            LogRow(r["seq"], r["state_id"], r["seat"], r["kind"], json.loads(r["action"]), r["time"], bool(r["undone"]))
            for r in rows
        ]

    def append_action(self, sid: int, seq: int, state_id: int, seat: str, action: dict[str, Any],
                      status: str | None = None, snapshot: tuple[int, Any] | None = None) -> None:
        """Append one accepted action (and the session's new `status`, when it ended the game, in the same
        transaction: a crash never leaves a finished game open); returns only once it is durable.

        `snapshot` (live entries counted, state as JSON) is the state after this action, saved in the same
        transaction: a snapshot of its own cost a second commit, a wait for the disk on that tap."""
        now = time.time()
        with self.transaction() as db:
            db.execute(
                _INSERT_ACTION,
                (sid, seq, state_id, seat, "action", json.dumps(action, sort_keys=True), now),
            )
            if status is None:
                db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (now, sid))
            else:
                db.execute("UPDATE sessions SET updated = ?, status = ? WHERE id = ?", (now, status, sid))
            if snapshot is not None:
                db.execute(_INSERT_SNAPSHOT, (sid, seq, snapshot[0], json.dumps(snapshot[1])))

    def append_undo(self, sid: int, seq: int, state_id: int, seat: str, undone_seq: int,
                    status: str | None = None) -> None:
        """Mark an action undone and log who undid it (and the session's new `status`), in one transaction."""
        now = time.time()
        with self.transaction() as db:
            changed = db.execute(
                "UPDATE actions SET undone = 1 WHERE session_id = ? AND seq = ? AND kind = 'action' AND undone = 0",
                (sid, undone_seq),
            ).rowcount
            if changed != 1:
                raise NotAllowed("action {number} is not there to undo", number=undone_seq)
            db.execute(
                _INSERT_ACTION,
                (sid, seq, state_id, seat, "undo", json.dumps({"undo": undone_seq}), now),
            )
            db.execute("DELETE FROM snapshots WHERE session_id = ? AND seq >= ?", (sid, undone_seq))
            if status is None:
                db.execute("UPDATE sessions SET updated = ? WHERE id = ?", (now, sid))
            else:
                db.execute("UPDATE sessions SET updated = ?, status = ? WHERE id = ?", (now, status, sid))

    # -- snapshots (a cache: always rebuildable from the log) ---------------------------------------
    def latest_snapshot(self, sid: int) -> tuple[int, int, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT seq, live_count, state FROM snapshots WHERE session_id = ? ORDER BY seq DESC LIMIT 1", (sid,)
            ).fetchone()
        return None if row is None else (row[0], row[1], json.loads(row[2]))

    def drop_snapshots(self, sid: int) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM snapshots WHERE session_id = ?", (sid,))

    # -- NFC tags -------------------------------------------------------------------------------
    def enroll_tag(self, uid: str, game: str, card: str) -> None:
        """Map a tag UID to a card; a UID already on another card is refused, a re-stickered card moves."""
        uid = normalise_uid(uid)
        with self.transaction() as db:
            row = db.execute("SELECT game, card FROM tags WHERE uid = ?", (uid,)).fetchone()
            if row is not None and (row[0], row[1]) != (game, card):
                raise NotAllowed("tag {uid} is already enrolled as {game} card {card}", uid=uid, game=row[0],
                                 card=row[1])
            db.execute("DELETE FROM tags WHERE game = ? AND card = ? AND uid != ?", (game, card, uid))
            db.execute(
                "INSERT OR REPLACE INTO tags (uid, game, card, enrolled) VALUES (?, ?, ?, ?)",
                (uid, game, card, time.time()),
            )

    def enrolment(self, game: str) -> dict[str, Any] | None:
        """The guided enrolment of `game` in progress (companion/store/enrolment.py), if any."""
        with self._lock:
            row = self._db.execute("SELECT state FROM enrolments WHERE game = ?", (game,)).fetchone()
        return None if row is None else json.loads(row[0])

    def save_enrolment(
        self,
        game: str,
        state: dict[str, Any] | None,
        forget: tuple[str, ...] = (),
        enroll: tuple[tuple[str, str, str], ...] = (),
    ) -> None:
        """One step of a guided enrolment in one transaction: tags forgotten (UIDs), tags enrolled ((uid, game,
        card), each moving the tag and replacing the card's old one), and the enrolment's state (None ends it)."""
        now = time.time()
        with self.transaction() as db:
            for uid in forget:
                db.execute("DELETE FROM tags WHERE uid = ?", (normalise_uid(uid),))
            for uid, tag_game, card in enroll:
                uid = normalise_uid(uid)
                db.execute("DELETE FROM tags WHERE uid = ? OR (game = ? AND card = ?)", (uid, tag_game, card))
                db.execute("INSERT INTO tags (uid, game, card, enrolled) VALUES (?, ?, ?, ?)",
                           (uid, tag_game, card, now))
            if state is None:
                db.execute("DELETE FROM enrolments WHERE game = ?", (game,))
            else:
                db.execute("INSERT OR REPLACE INTO enrolments (game, state, updated) VALUES (?, ?, ?)",
                           (game, json.dumps(state), now))

    def lookup_tag(self, uid: str) -> tuple[str, str] | None:
        with self._lock:
            row = self._db.execute("SELECT game, card FROM tags WHERE uid = ?", (normalise_uid(uid),)).fetchone()
        return None if row is None else (row[0], row[1])

    def tags(self, game: str) -> dict[str, str]:
        with self._lock:
            rows = self._db.execute("SELECT uid, card FROM tags WHERE game = ? ORDER BY card", (game,)).fetchall()
        return {r[0]: r[1] for r in rows}


def normalise_uid(uid: str) -> str:
    """Tag UIDs as upper-case hex without separators ("04:a1:..." and "04A1..." are the same tag)."""
    text = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
    if not text or len(text) % 2 or any(c not in "0123456789ABCDEF" for c in text):
        raise NotAllowed("{uid} is not a tag UID (hex bytes)", uid=repr(uid))
    return text
