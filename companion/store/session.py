"""A live session: the game state rebuilt from the action log, with submit, undo and corrections."""

from __future__ import annotations

import dataclasses
import hmac
import json
import random
import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from companion.core.actions import Action
from companion.core.errors import IllegalAction, NotAllowed, StaleState
from companion.core.game import Game, GameConfig, Mode
from companion.core.log import LogMessage
from companion.core.names import check_names
from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE, Seat, parse_seat
from companion.core.table import SESSION_ACTIONS, JobDone, is_session_action
from companion.i18n import catalog, log_line, words
from companion.store.db import Store

# A snapshot of the state is cached this often (in live actions); the log stays the truth.
SNAPSHOT_EVERY = 100
TICKER_LENGTH = 200
LOG_SHOWN = 30  # the ticker lines the public view carries (the display shows as many as fit)
# The ticker lines a seat's view carries: a phone shows the last 6. The 30 of the public view were a third of
# every phone's view (7 phones' views made, deflated and sent after every change), for lines no phone shows.
SEAT_LOG_SHOWN = 10
# The board jobs already ticked that the public view still lists (struck through), newest first.
DONE_JOBS_SHOWN = 10
SNAPSHOT_FORMAT = 2
# Actions whose JSON is kept for the views (see Session._actions_json), and board jobs as shown (_job_entry).
ACTION_JSON_KEPT = 5000
JOB_ENTRIES_KEPT = 500


class Ticker(deque[LogMessage]):
    """The session's recent log lines, counting its changes (what a view shows of it is kept per version)."""

    version = 0

    def append(self, message: LogMessage) -> None:
        self.version += 1
        super().append(message)

    def extend(self, messages: Iterable[LogMessage]) -> None:
        self.version += 1
        super().extend(messages)

    def clear(self) -> None:
        self.version += 1
        super().clear()


Actor = Seat  # who is submitting: a player seat, TABLE (the controller) or HOST


@dataclasses.dataclass(frozen=True)
class Accepted:
    """The answer to an accepted action: the new state id and what happened."""

    state_id: int
    seq: int
    action: Action
    log: tuple[LogMessage, ...]


def _seat_text(seat: Seat) -> str:
    return str(seat)


@dataclasses.dataclass(frozen=True)
class Job:
    """One board job: `id` is "<seq of the action that caused it>-<index>" (0 for the setup), stable across replay."""

    id: str
    message: LogMessage


def _args(data: dict[str, Any]) -> dict[str, Any]:
    """Message args read back from JSON: lists were tuples."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}


def _jobs_of(seq: int, messages: Sequence[LogMessage]) -> list[Job]:
    return [Job(f"{seq}-{i + 1}", m) for i, m in enumerate(messages) if m.visible_to is None]


class Session:
    """One game at one table. Actions are applied one at a time; each is durable before it is acknowledged."""

    def __init__(self, store: Store, sid: int) -> None:
        self.store = store
        self.id = sid
        row = store.session(sid)
        self.game: Game[Any] = get_game(row.game)
        self.config: GameConfig = self.game.config_from_json(row.config)
        self.seed = row.seed
        self.status = row.status
        self.host_token = row.host_token
        self._lock = threading.RLock()
        self.ticker: Ticker = Ticker(maxlen=TICKER_LENGTH)
        # The ticker lines of a view, per (ticker version, names) and viewer: see _log.
        self._log_key: tuple[int, tuple[str, ...]] | None = None
        self._log_tail: list[LogMessage] = []
        self._log_private = False
        self._log_lists: dict[tuple[Seat | None, int], list[dict[str, Any]]] = {}
        self._listeners: list[Callable[[Session, Accepted | None], None]] = []
        self._board_cache: tuple[tuple[int, tuple[str, ...]], list[dict[str, Any]]] | None = None
        # Each board job's entry as shown, per job and player names: most jobs stay open over many changes, and
        # wording them all again was half of the first view of every change.
        self._job_entries: dict[tuple[str, tuple[str, ...]], tuple[LogMessage, dict[str, Any]]] = {}
        # Ticker lines as sent (template, params, text), per message and player names: see _worded_line.
        self._worded: dict[tuple[int, tuple[str, ...]], tuple[LogMessage, dict[str, Any]]] = {}
        # The parts of a view that depend on the state alone (each seat's game view and legal actions as JSON,
        # who acts now...), kept for one state: see _derive.
        self._derived_of: Any = None
        self._derived: dict[Any, Any] = {}
        self._action_json: dict[Action, dict[str, Any]] = {}
        self._load()

    # -- creation ---------------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        store: Store,
        game_name: str,
        players: int,
        *,
        seed: int | None = None,
        mode: Mode = "digital",
        options: dict[str, Any] | None = None,
        chance: dict[str, Mode] | None = None,
        names: Sequence[str] | None = None,
        colours: Sequence[str] | None = None,
        bots: dict[int, str] | None = None,
    ) -> Session:
        game = get_game(game_name)
        config = game.make_config(players, mode, options, chance)
        for seat, level in (bots or {}).items():
            check_bot_seat(seat, level, players)
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        names = list(names or [])
        check_names(names)
        if len(names) > players:
            raise IllegalAction("{names} names for {players} players", names=len(names), players=players)
        names += [f"Player {i + 1}" for i in range(len(names), players)]
        game.setup(config, random.Random(seed))  # refuse a config that cannot be set up before storing it
        sid = store.create_session(game.name, config.to_json(), seed, names, list(colours) if colours else None)
        for seat, level in (bots or {}).items():
            store.set_bot(sid, seat, level)
        return cls(store, sid)

    # -- loading and replay -----------------------------------------------------------------------
    def _load(self) -> None:
        rows = self.store.log(self.id)
        live = [r for r in rows if r.kind == "action" and not r.undone]
        self.state_id = rows[-1].state_id if rows else 0
        self._next_seq = rows[-1].seq + 1 if rows else 1
        # Every live entry, the table's ticks of board jobs too (they change no game state).
        self._live: list[tuple[int, Action]] = [(r.seq, self.parse(r.action)) for r in live]
        start_index = 0
        state = None
        carried: list[Job] = []
        snap = self.store.latest_snapshot(self.id)
        if snap is not None:
            seq, count, data = snap
            fits = count <= len(self._live) and (count == 0 or self._live[count - 1][0] == seq)
            # A snapshot of an older format holds no board jobs: replay from the setup instead.
            if fits and isinstance(data, dict) and data.get("format") == SNAPSHOT_FORMAT:
                state = self.game.state_from_json(data["state"])
                carried = [Job(j["id"], LogMessage(j["template"], _args(j["args"]))) for j in data["jobs"]]
                start_index = count
        if state is None:
            state = self.game.setup(self.config, random.Random(self.seed))
            carried = _jobs_of(0, self.game.board_jobs(None, None, state))
        # _states[i] is the state after the first (base + i) live entries; _jobs[i] the board jobs that entry set.
        self._base = start_index
        self._states: list[Any] = [state]
        self._jobs: list[list[Job]] = [carried]
        for seq, action in self._live[start_index:]:
            new_state, messages, jobs = self._step(state, seq, action)
            state = new_state
            self._states.append(state)
            self._jobs.append(jobs)
            self.ticker.extend(messages)

    def parse(self, raw: Action | dict[str, Any] | str) -> Action:
        """An action of the game, or one the session handles itself (`job_done`)."""
        if isinstance(raw, Action):
            return raw
        if isinstance(raw, str):
            try:
                decoded = json.loads(raw)
            except ValueError:
                return self.game.actions.parse(raw)
            raw = decoded if isinstance(decoded, dict) else raw
        if is_session_action(raw):
            return SESSION_ACTIONS.parse(raw)
        return self.game.actions.parse(raw)

    def _step(self, state: Any, seq: int, action: Action) -> tuple[Any, list[LogMessage], list[Job]]:
        """Apply one live entry: a game action through the rules, a job tick only checked against the checklist."""
        if isinstance(action, JobDone):
            return state, [], []
        new_state, messages = self.game.apply(state, action)
        return new_state, messages, _jobs_of(seq, self.game.board_jobs(state, action, new_state))

    @property
    def state(self) -> Any:
        return self._states[-1]

    def _state_before_last(self) -> Any:
        if len(self._states) >= 2:
            return self._states[-2]
        # The history before a snapshot is not in memory: rebuild it from the log.
        state = self.game.setup(self.config, random.Random(self.seed))
        for _, action in self._live[:-1]:
            if not isinstance(action, JobDone):
                state, _ = self.game.apply(state, action)
        return state

    def verify(self) -> bool:
        """Replay the whole log from setup and compare with the live state."""
        state = self.game.setup(self.config, random.Random(self.seed))
        for _, action in self._live:
            if not isinstance(action, JobDone):
                state, _ = self.game.apply(state, action)
        return state == self.state

    # -- listeners (the web and display fan-out) --------------------------------------------------
    def subscribe(self, listener: Callable[[Session, Accepted | None], None]) -> Callable[[], None]:
        """Call `listener(session, accepted)` after every change (accepted is None for an undo)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _notify(self, accepted: Accepted | None) -> None:
        for listener in list(self._listeners):
            listener(self, accepted)

    # -- authority --------------------------------------------------------------------------------
    def seat_for_token(self, token: str) -> Actor:
        """HOST for the host token, the seat number for a seat token; NotAllowed otherwise (constant time)."""
        found: Actor | None = None
        if hmac.compare_digest(token.encode(), self.host_token.encode()):
            found = HOST
        for row in self.store.seats(self.id):
            if hmac.compare_digest(token.encode(), row.token.encode()):
                found = row.seat
        if found is None:
            raise NotAllowed("that link is not valid for this game")
        return found

    def check_authority(self, actor: Actor, action: Action) -> None:
        if type(action).host_only:
            if actor != HOST or action.seat != HOST:
                raise NotAllowed("only the host may make a {kind}", kind=words(action.kind)).worded(
                    f"only the host may make a {action.kind}")
            return
        if actor == HOST:
            return  # the host may act for the table or any seat (e.g. a player without a phone)
        if action.seat != actor:
            raise NotAllowed("{player} cannot act for {other}", player=actor, other=action.seat).worded(
                f"{_who(actor)} cannot act for {_who(action.seat)}")

    # -- submitting -------------------------------------------------------------------------------
    def submit(self, raw: Action | dict[str, Any] | str, actor: Actor, state_id: int | None = None) -> Accepted:
        """Parse, authorise, check the state id, apply, log durably, then acknowledge."""
        action = self.parse(raw)
        with self._lock:
            self.check_authority(actor, action)
            if state_id is not None and state_id != self.state_id:
                raise StaleState("the game has moved on (you saw state {seen}, it is now {now})", seen=state_id,
                                 now=self.state_id)
            if self.status == "ended":
                raise IllegalAction("this game has ended")
            if isinstance(action, JobDone):
                self._check_job(action.job)
            elif self.game.is_over(self.state) and not type(action).host_only:
                raise IllegalAction("the game is over")
            seq = self._next_seq
            new_state, messages, jobs = self._step(self.state, seq, action)
            finished = self.game.is_over(new_state) and self.status != "over"
            # Every SNAPSHOT_EVERY live entries the state goes to disk with the action (one commit, not two).
            count = len(self._live) + 1
            snapshot = (count, self._snapshot(new_state, jobs)) if count % SNAPSHOT_EVERY == 0 else None
            self.store.append_action(self.id, seq, self.state_id + 1, _seat_text(actor), action.to_json(),
                                     status="over" if finished else None, snapshot=snapshot)
            # Only now, with the action on disk, does anything in memory change.
            self._next_seq += 1
            self.state_id += 1
            self._live.append((seq, action))
            self._states.append(new_state)
            self._jobs.append(jobs)
            self.ticker.extend(messages)
            if finished:
                self.status = "over"
            accepted = Accepted(self.state_id, seq, action, tuple(messages))
        self._notify(accepted)
        return accepted

    def undo(self, actor: Actor, state_id: int | None = None) -> int:
        """Undo the last action. A seat: only its own, within the current turn, and not a reveal."""
        with self._lock:
            if state_id is not None and state_id != self.state_id:
                raise StaleState("the game has moved on (you saw state {seen}, it is now {now})", seen=state_id,
                                 now=self.state_id)
            if not self._live:
                raise NotAllowed("there is nothing to undo")
            if self.status == "ended":
                raise NotAllowed("this game has ended")
            seq, action = self._live[-1]
            before = self._state_before_last()
            if actor != HOST and isinstance(action, JobDone):
                if action.seat != actor:
                    raise NotAllowed("the last action was {player}'s; only the host can undo it",
                                     player=action.seat).worded(
                        f"the last action was {_who(action.seat)}'s; only the host can undo it")
            elif actor != HOST:
                if action.seat != actor:
                    raise NotAllowed("the last action was {player}'s; only the host can undo it",
                                     player=action.seat).worded(
                        f"the last action was {_who(action.seat)}'s; only the host can undo it")
                if self.game.turn_id(before) != self.game.turn_id(self.state):
                    raise NotAllowed("that action began a new turn; only the host can undo it")
                if self.game.reveals_information(before, action, self.state):
                    raise NotAllowed("that action revealed hidden cards; only the host can undo it")
            reopened = self.status == "over" and not self.game.is_over(before)
            self.store.append_undo(self.id, self._next_seq, self.state_id + 1, _seat_text(actor), seq,
                                   status="open" if reopened else None)
            self._next_seq += 1
            self.state_id += 1
            self._live.pop()
            if len(self._states) >= 2:
                self._states.pop()
                self._jobs.pop()
            else:
                # Back before the snapshot: replay the log (the snapshot is gone) to get its board jobs back too.
                self._reload_history()
            if reopened:
                self.status = "open"
            self.ticker.append(LogMessage("{who} undid {action}", {"who": actor, "action": words(action.kind)}))
        self._notify(None)
        return self.state_id

    def end(self) -> None:
        """The host ends the session (it will not be resumed)."""
        with self._lock:
            self.store.set_status(self.id, "ended")
            self.status = "ended"
        self._notify(None)

    # -- board jobs -------------------------------------------------------------------------------
    def _reload_history(self) -> None:
        """Rebuild states and board jobs from the log (after an undo reached back before the cached snapshot)."""
        ticker = list(self.ticker)
        self._load()
        self.ticker.clear()
        self.ticker.extend(ticker)

    def _snapshot(self, state: Any, new_jobs: Sequence[Job]) -> dict[str, Any]:
        """The cached state with the board jobs set so far (and `new_jobs`, set by the entry that led to `state`
        and not yet in memory), so a reload keeps the checklist (ticks are in the log)."""
        jobs = [{"id": j.id, "template": j.message.template, "args": dict(j.message.args)}
                for j in [*self.jobs(), *new_jobs]]
        return {"format": SNAPSHOT_FORMAT, "state": self.game.state_to_json(state), "jobs": jobs}

    def jobs(self) -> list[Job]:
        """Every board job the live entries set, oldest first."""
        return [job for jobs in self._jobs for job in jobs]

    def done_jobs(self) -> dict[str, Seat]:
        """The ticked jobs and who ticked them."""
        return {a.job: a.seat for _, a in self._live if isinstance(a, JobDone)}

    def open_jobs(self) -> list[Job]:
        with self._lock:
            done = self.done_jobs()
            return [j for j in self.jobs() if j.id not in done]

    def _check_job(self, job: str) -> None:
        if job in self.done_jobs():
            raise IllegalAction("that board job is already done")
        if all(j.id != job for j in self.jobs()):
            raise IllegalAction("there is no board job {job}", job=job)

    # -- bot seats --------------------------------------------------------------------------------
    def bots(self) -> dict[int, str]:
        """The seats a bot plays, with its level."""
        return {row.seat: row.bot for row in self.store.seats(self.id) if row.bot}

    def set_bot(self, seat: int, level: str | None, actor: Actor = HOST) -> None:
        """The host hands a seat to a bot of `level` or (None) takes it back for a person; stored at once."""
        if actor != HOST:
            raise NotAllowed("only the host may hand a seat to a bot or take it back")
        check_bot_seat(seat, level, self.config.players)
        with self._lock:
            self.store.set_bot(self.id, seat, level)
            if level:
                self.ticker.append(LogMessage("{player} is now played by a bot ({level})",
                                              {"player": seat, "level": level}))
            else:
                self.ticker.append(LogMessage("{player} is played by a person again", {"player": seat}))
        self._notify(None)

    # -- reading ----------------------------------------------------------------------------------
    def live_actions(self) -> list[Action]:
        """The game's actions in order (the ticks of board jobs left out: they are no moves of the game)."""
        return [a for _, a in self._live if not isinstance(a, JobDone)]

    def live_entries(self) -> list[tuple[int, Action]]:
        """Every live entry with its log sequence number, job ticks included."""
        with self._lock:
            return list(self._live)

    def names(self) -> list[str]:
        return [s.name for s in self.store.seats(self.id)]

    def worded(self, message: LogMessage, names: Sequence[str] | None = None, lang: str = "en") -> dict[str, Any]:
        """A message as JSON: its template and params, and its text with players named (never a seat number)."""
        shown = names if names is not None else self.names()
        return {"template": message.template, "args": dict(message.args), "params": dict(message.args),
                "text": log_line(message.template, dict(message.args), catalog(lang), list(shown), self.game.name)}

    def _worded_line(self, message: LogMessage, names: list[str]) -> dict[str, Any]:
        """A ticker line as the views carry it (`worded` without `params`, which repeats `args`: every view of
        every change carries these lines), kept: wording them again was a third of a fan-out's time."""
        key = (id(message), tuple(names))
        found = self._worded.get(key)
        if found is not None and found[0] is message:
            return found[1]
        if len(self._worded) > 4 * TICKER_LENGTH:
            self._worded.clear()
        worded = self.worded(message, names)
        del worded["params"]
        self._worded[key] = (message, worded)
        return worded

    def _log(self, seat: Seat | None, names: list[str]) -> list[dict[str, Any]]:
        """The last ticker lines `seat` may read, worded (call with the lock held). Every view of a change carries
        them; while none of them is private, every viewer shares one list (read-only)."""
        key = (self.ticker.version, tuple(names))
        if key != self._log_key:
            self._log_key = key
            self._log_lists = {}
            self._log_tail = list(self.ticker)[-LOG_SHOWN:]
            self._log_private = any(m.visible_to is not None for m in self._log_tail)
        who = seat if self._log_private else None
        shown = LOG_SHOWN if seat is None else SEAT_LOG_SHOWN
        found = self._log_lists.get((who, shown))
        if found is None:
            readable = [m for m in self._log_tail if m.visible(who)][-shown:]
            found = self._log_lists[(who, shown)] = [self._worded_line(m, names) for m in readable]
        return found

    def board_jobs(self, names: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The checklist for the public view: every open job, then the last few ticked (newest first)."""
        with self._lock:
            names = names if names is not None else self.names()
            key = (self.state_id, tuple(names))
            if self._board_cache is not None and self._board_cache[0] == key:
                return self._board_cache[1]
            done = self.done_jobs()
            jobs = self.jobs()
            open_ = [j for j in jobs if j.id not in done]
            order = list(done)
            ticked = sorted((j for j in jobs if j.id in done), key=lambda j: order.index(j.id), reverse=True)
            out = []
            for job, is_done in [(j, False) for j in open_] + [(j, True) for j in ticked[:DONE_JOBS_SHOWN]]:
                out.append({**self._job_entry(job, key[1]), "done": is_done})
            # Every viewer gets the same list after a change: word it once per state.
            self._board_cache = (key, out)
            return out

    def _job_entry(self, job: Job, names: tuple[str, ...]) -> dict[str, Any]:
        """A board job as the checklist shows it (without whether it is done), kept while its message is the same."""
        key = (job.id, names)
        found = self._job_entries.get(key)
        if found is not None and found[0] is job.message:
            return found[1]
        if len(self._job_entries) > JOB_ENTRIES_KEPT:
            self._job_entries.clear()
        worded = self.worded(job.message, names)
        entry = {"id": job.id, "text": worded["text"], "template": job.message.template,
                 "params": dict(job.message.args)}
        self._job_entries[key] = (job.message, entry)
        return entry

    def now(self, names: Sequence[str] | None = None) -> dict[str, Any]:
        """Who acts now and how, in one sentence."""
        with self._lock:
            shown = list(names) if names is not None else self.names()
            state = self.state

            def make() -> dict[str, Any]:
                current = self._derive(state, "now", lambda: self.game.now(state))
                worded = self.worded(current.message, shown)
                return {"text": worded["text"], "template": current.message.template,
                        "params": dict(current.message.args), "acting": list(current.acting),
                        "may": list(current.may)}

            return self._derive(state, ("now", tuple(shown)), make)

    # -- the parts of a view that depend on the state alone -----------------------------------------
    def _derive(self, state: Any, key: Hashable, make: Callable[[], Any]) -> Any:
        """`make()` for this state, kept while the state is the latest asked for (call with the lock held).

        Every change is viewed by every connected seat and the public table; what depends on the state alone
        is made once per state, and shared by the views (read-only)."""
        if self._derived_of is not state:
            self._derived_of = state
            self._derived = {}
        found = self._derived.get(key, _MISSING)
        if found is _MISSING:
            found = self._derived[key] = make()
        return found

    def _game_view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        return self._derive(state, ("view", seat), lambda: self.game.view(state, seat))

    def _legal_json(self, state: Any, seat: Seat) -> list[dict[str, Any]]:
        return self._derive(state, ("legal", seat), lambda: self._actions_json(self.game.legal_actions(state, seat)))

    def _actions_json(self, actions: Sequence[Action]) -> list[dict[str, Any]]:
        """Actions as JSON for the views (read-only). Most of a seat's legal actions are the same from one change
        to the next (Bohnanza's offers and plantings: some 200 per change for seven phones), so each action's JSON
        is kept, keyed by the action itself (a frozen dataclass: equal actions give equal JSON)."""
        kept = self._action_json
        if len(kept) > ACTION_JSON_KEPT:
            kept.clear()
        out = []
        for action in actions:
            try:
                found = kept.get(action)
            except TypeError:  # an action with an unhashable field: not kept
                out.append(action.to_json())
                continue
            if found is None:
                found = kept[action] = action.to_json()
            out.append(found)
        return out

    def _common(self, state: Any) -> tuple[list[Seat], bool]:
        """(who acts now, whether the game is over)"""
        return self._derive(state, "common", lambda: (list(self.game.current_seats(state)),
                                                      self.game.is_over(state)))

    def game_view(self, seat: Seat | None) -> dict[str, Any]:
        """The game's own view of the current state for `seat` (None: the public table), without the envelope."""
        with self._lock:
            return self._game_view(self.state, seat)

    def snapshot(self) -> tuple[int, Any]:
        """(state id, state) read together: what the hub hands to the hint workers."""
        with self._lock:
            return self.state_id, self.state

    def view(self, seat: Seat | None, *, hints: bool = True, seats: Sequence[Any] | None = None) -> dict[str, Any]:
        """What `seat` (None: the public table) may see, with the session's envelope (a seat's without the table's
        checklist, `board_jobs`, which is the display's and the host page's).

        `hints=False` leaves a seat's hints out (the hub sends them on their own, after every seat's view);
        `seats` are the store's seat rows when the caller already read them (one read for a whole fan-out).
        """
        with self._lock:
            state = self.state
            if seats is None:
                seats = self.store.seats(self.id)
            names = [s.name for s in seats]
            now = self.now(names)
            current, over = self._common(state)
            body: dict[str, Any] = {
                "session": self.id,
                "game": self.game.name,
                "title": self.game.title,
                "state_id": self.state_id,
                "status": self.status,
                "mode": self.config.mode,
                "seat": seat,
                "players": [{"seat": s.seat, "name": s.name, "colour": s.colour, "bot": s.bot} for s in seats],
                "current_seats": list(current),
                "over": over,
                "view": self._game_view(state, seat),
                "now": now,
                "log": self._log(seat, names),
            }
            if not isinstance(seat, int):
                # The checklist is the table's (the display, the host page): no phone shows it, and it was a
                # quarter of each phone's view, made into JSON, compressed and sent after every change.
                body["board_jobs"] = self.board_jobs(names)
            if over:
                body["scores"] = self._derive(state, "scores", lambda: self.game.scores(state))
            if isinstance(seat, int):
                body["legal"] = self._legal_json(state, seat)
                if hints:
                    body["hints"] = self.game.hints(state, seat)
            return body

    def legal_actions(self, seat: Seat) -> list[Action]:
        with self._lock:
            return self.game.legal_actions(self.state, seat)


_MISSING = object()


def _who(seat: Seat) -> str:
    if seat == HOST:
        return "the host"
    if seat == TABLE:
        return "the table"
    return f"seat {seat + 1}"  # counted from 1, as people count


BOT_LEVELS = ("easy", "normal", "strong")


def check_bot_seat(seat: int, level: str | None, players: int) -> None:
    """A bot seat is a player's seat and a level is easy, normal or strong; otherwise a clear refusal."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise NotAllowed("there is no such seat for a bot: seats are 1–{players}", players=players)
    if level is not None and level not in BOT_LEVELS:
        raise NotAllowed("a bot level is easy, normal or strong, not {level}", level=repr(level))


def parse_actor(raw: str) -> Actor:
    return parse_seat(raw)
