"""A live session: the game state rebuilt from the action log, with submit, undo and corrections."""

from __future__ import annotations

import dataclasses
import hmac
import random
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from companion.core.actions import Action
from companion.core.errors import IllegalAction, NotAllowed, StaleState
from companion.core.game import Game, GameConfig, Mode
from companion.core.log import LogMessage
from companion.core.names import check_names
from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE, Seat, parse_seat
from companion.i18n import words
from companion.store.db import Store

# A snapshot of the state is cached this often (in live actions); the log stays the truth.
SNAPSHOT_EVERY = 100
TICKER_LENGTH = 200

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
        self.ticker: deque[LogMessage] = deque(maxlen=TICKER_LENGTH)
        self._listeners: list[Callable[[Session, Accepted | None], None]] = []
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
    ) -> Session:
        game = get_game(game_name)
        config = game.make_config(players, mode, options, chance)
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        names = list(names or [])
        check_names(names)
        if len(names) > players:
            raise IllegalAction("{names} names for {players} players", names=len(names), players=players)
        names += [f"Player {i + 1}" for i in range(len(names), players)]
        game.setup(config, random.Random(seed))  # refuse a config that cannot be set up before storing it
        sid = store.create_session(game.name, config.to_json(), seed, names, list(colours) if colours else None)
        return cls(store, sid)

    # -- loading and replay -----------------------------------------------------------------------
    def _load(self) -> None:
        rows = self.store.log(self.id)
        live = [r for r in rows if r.kind == "action" and not r.undone]
        self.state_id = rows[-1].state_id if rows else 0
        self._next_seq = rows[-1].seq + 1 if rows else 1
        self._live: list[tuple[int, Action]] = [(r.seq, self.game.actions.parse(r.action)) for r in live]
        start_index = 0
        state = None
        snap = self.store.latest_snapshot(self.id)
        if snap is not None:
            seq, count, data = snap
            if count <= len(self._live) and (count == 0 or self._live[count - 1][0] == seq):
                state = self.game.state_from_json(data)
                start_index = count
        if state is None:
            state = self.game.setup(self.config, random.Random(self.seed))
        # _states[i] is the state after the first (base + i) live actions.
        self._base = start_index
        self._states: list[Any] = [state]
        for _, action in self._live[start_index:]:
            state, messages = self.game.apply(state, action)
            self._states.append(state)
            self.ticker.extend(messages)

    @property
    def state(self) -> Any:
        return self._states[-1]

    def _state_before_last(self) -> Any:
        if len(self._states) >= 2:
            return self._states[-2]
        # The history before a snapshot is not in memory: rebuild it from the log.
        state = self.game.setup(self.config, random.Random(self.seed))
        for _, action in self._live[:-1]:
            state, _ = self.game.apply(state, action)
        return state

    def verify(self) -> bool:
        """Replay the whole log from setup and compare with the live state."""
        state = self.game.setup(self.config, random.Random(self.seed))
        for _, action in self._live:
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
        action = raw if isinstance(raw, Action) else self.game.actions.parse(raw)
        with self._lock:
            self.check_authority(actor, action)
            if state_id is not None and state_id != self.state_id:
                raise StaleState("the game has moved on (you saw state {seen}, it is now {now})", seen=state_id,
                                 now=self.state_id)
            if self.status == "ended":
                raise IllegalAction("this game has ended")
            if self.game.is_over(self.state) and not type(action).host_only:
                raise IllegalAction("the game is over")
            new_state, messages = self.game.apply(self.state, action)
            seq = self._next_seq
            finished = self.game.is_over(new_state) and self.status != "over"
            self.store.append_action(self.id, seq, self.state_id + 1, _seat_text(actor), action.to_json(),
                                     status="over" if finished else None)
            # Only now, with the action on disk, does anything in memory change.
            self._next_seq += 1
            self.state_id += 1
            self._live.append((seq, action))
            self._states.append(new_state)
            self.ticker.extend(messages)
            if len(self._live) % SNAPSHOT_EVERY == 0:
                self.store.save_snapshot(self.id, seq, len(self._live), self.game.state_to_json(new_state))
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
            if actor != HOST:
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
            else:
                self._states = [before]
                self._base = len(self._live)
            if reopened:
                self.status = "open"
            self.ticker.append(LogMessage("{who} undid {action}", {"who": _who(actor), "action": action.kind}))
        self._notify(None)
        return self.state_id

    def end(self) -> None:
        """The host ends the session (it will not be resumed)."""
        with self._lock:
            self.store.set_status(self.id, "ended")
            self.status = "ended"
        self._notify(None)

    # -- reading ----------------------------------------------------------------------------------
    def live_actions(self) -> list[Action]:
        return [a for _, a in self._live]

    def snapshot(self) -> tuple[int, Any]:
        """(state id, state) read together: what the hub hands to the hint workers."""
        with self._lock:
            return self.state_id, self.state

    def view(self, seat: Seat | None, *, hints: bool = True, seats: Sequence[Any] | None = None) -> dict[str, Any]:
        """What `seat` (None: the public table) may see, with the session's envelope.

        `hints=False` leaves a seat's hints out (the hub sends them on their own, after every seat's view);
        `seats` are the store's seat rows when the caller already read them (one read for a whole fan-out).
        """
        with self._lock:
            state = self.state
            if seats is None:
                seats = self.store.seats(self.id)
            body: dict[str, Any] = {
                "session": self.id,
                "game": self.game.name,
                "title": self.game.title,
                "state_id": self.state_id,
                "status": self.status,
                "mode": self.config.mode,
                "seat": seat,
                "players": [{"seat": s.seat, "name": s.name, "colour": s.colour} for s in seats],
                "current_seats": list(self.game.current_seats(state)),
                "over": self.game.is_over(state),
                "view": self.game.view(state, seat),
                "log": [m.to_json() for m in list(self.ticker)[-30:] if m.visible(seat)],
            }
            if body["over"]:
                body["scores"] = self.game.scores(state)
            if isinstance(seat, int):
                body["legal"] = [a.to_json() for a in self.game.legal_actions(state, seat)]
                if hints:
                    body["hints"] = self.game.hints(state, seat)
            return body

    def legal_actions(self, seat: Seat) -> list[Action]:
        with self._lock:
            return self.game.legal_actions(self.state, seat)


def _who(seat: Seat) -> str:
    if seat == HOST:
        return "the host"
    if seat == TABLE:
        return "the table"
    return f"seat {seat}"


def parse_actor(raw: str) -> Actor:
    return parse_seat(raw)
