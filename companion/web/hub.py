"""Live sessions and their fan-out: one bounded mailbox and sender task per connection, one action at a time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from companion.core.actions import Action
from companion.core.errors import CompanionError, NotAllowed
from companion.core.log import msg
from companion.core.public import REFUSED, public_attempt, refusal_is_public
from companion.core.seats import HOST, Seat
from companion.i18n import N_
from companion.store import Accepted, Session, Store
from companion.web.clocks import CLOCKS, Deadline
from companion.web.collector import IdleCollector
from companion.web.edge import MAX_ID, is_plain_token
from companion.web.hints import shared_pool

# Feedback to an undo, as a sentence naming who undid it.
UNDONE_BY_PLAYER = N_("{player} took back their last move")
UNDONE_BY_HOST = N_("The host took back the last move")

Source = Literal["phone", "board", "host", "display", "bot"]
Viewer = int | None  # a seat number, or None for the public stream


class RateLimited(CompanionError):
    """Too many actions in a short time from one token."""

    code = "rate_limited"


class UnknownSession(CompanionError):
    code = "unknown_session"


class MissingToken(CompanionError):
    """A request that needs a token came without one."""

    code = "no_token"


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text that always encodes: a lone surrogate that slipped in is escaped.

    orjson: every change sends one view per connection, and the standard library's encoder was a sixth of a
    fan-out's time. orjson refuses a lone surrogate; such a message goes through `json` with escapes."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, ensure_ascii=True, separators=(",", ":"))


class TokenBucket:
    """Per-key token buckets: `rate` actions a second on average, bursts of up to `burst`."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> bool:
        now = self.clock()
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 10_000:  # only valid tokens get here, but keep memory bounded all the same
            self._buckets.clear()
        return True


async def _resume(sending: Coroutine[Any, Any, Any], waiting: Any) -> None:
    """Carry on, in the current task, a coroutine that was stepped once by hand and then yielded `waiting` (what
    it waits for: a future, or None for a bare turn of the loop), until it ends; a cancellation reaches it."""
    while True:
        cancelled: BaseException | None = None
        try:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                # As a task does with what its coroutine yields: the future's "yielded by an await" mark, taken.
                waiting._asyncio_future_blocking = False
                await waiting
        except asyncio.CancelledError as exc:
            cancelled = exc
        except Exception:  # the future's own error: the coroutine reads it when resumed
            pass
        try:
            waiting = sending.send(None) if cancelled is None else sending.throw(cancelled)
        except StopIteration:
            return


class Connection:
    """One live client (a phone, a display, a host page): a bounded mailbox drained by its own sender task.

    A newer view supersedes a queued older one, so a phone that lags gets the latest state, not a backlog.
    A client whose mailbox still overflows, or whose socket does not take a message within the send timeout,
    is disconnected; it reconnects and gets a full view. The others never wait for it.

    A message offered while the sender waits for mail with nothing queued goes onto the socket at once, from the
    offering code (see `_send_now`); only a send that has to wait is left to the sender task.
    """

    def __init__(
        self,
        viewer: Viewer,
        send: Callable[[str], Coroutine[Any, Any, None]],
        close: Callable[[int, str], Awaitable[None]] | None = None,
        *,
        queue_size: int = 64,
        send_timeout: float = 10.0,
    ) -> None:
        self.viewer = viewer
        self._send = send
        self._close = close
        self.queue_size = queue_size
        self.send_timeout = send_timeout
        self._mailbox: deque[tuple[str, str, int | None]] = deque()
        self._wake = asyncio.Event()
        self.last_view_id = -1
        # The state id of the last view this connection put on the wire, and who hears of each (the session, which
        # holds the hint jobs back until every view is out).
        self.sent_view_id = -1
        self.on_view_sent: Callable[[], None] | None = None
        self.closed = asyncio.Event()
        self.close_reason = ""
        self.last_heard = time.monotonic()
        # True while the sender task waits for mail; a send begun at once that had to wait (a full socket buffer),
        # with what it sends, for the sender to finish before anything queued after it.
        self._idle = False
        self._rest: tuple[Coroutine[Any, Any, None], Any, str, int | None] | None = None

    def offer(self, kind: str, text: str, state_id: int | None = None) -> None:
        """Queue a message without waiting; views older than the last one offered are dropped.

        Hints belong to one state: they are queued only for the state of the last view offered, and a newer
        view drops any hints still waiting (they would describe a table that has moved on).
        """
        if self.closed.is_set():
            return
        if kind == "hints":
            if state_id != self.last_view_id:
                return
        elif kind == "view":
            if state_id is not None:
                if state_id < self.last_view_id:
                    return
                self.last_view_id = state_id
            if any(k in ("view", "hints") for k, _, _ in self._mailbox):
                self._mailbox = deque(item for item in self._mailbox if item[0] not in ("view", "hints"))
        if len(self._mailbox) >= self.queue_size:
            self.shut("this connection fell too far behind")
            return
        if self._idle and not self._mailbox:
            self._send_now(kind, text, state_id)
            return
        self._mailbox.append((kind, text, state_id))
        self._wake.set()

    def _send_now(self, kind: str, text: str, state_id: int | None) -> None:
        """Put a message on the socket now, without a turn of the loop.

        A WebSocket send only waits when the socket's buffer is full: until then it runs to its end in one step.
        Waking the sender task for each message cost every connection a turn of the loop, and the last phone of a
        change waited for the turns of all the others (and of whatever else the loop had ready)."""
        self._idle = False
        sending = self._send(text)
        try:
            waiting = sending.send(None)
        except StopIteration:
            self._idle = True
            self._sent(kind, state_id)
            return
        except Exception as exc:  # a closed socket raises library-specific errors; all end this connection
            self.shut(f"sending failed: {type(exc).__name__}")
            return
        self._rest = (sending, waiting, kind, state_id)
        self._wake.set()

    def _sent(self, kind: str, state_id: int | None) -> None:
        if kind == "view" and state_id is not None:
            self.sent_view_id = max(self.sent_view_id, state_id)
            if self.on_view_sent is not None:
                self.on_view_sent()

    def view_pending(self, state_id: int) -> bool:
        """Whether a view of `state_id` or later is offered to this connection and not yet sent."""
        return not self.closed.is_set() and self.sent_view_id < state_id <= self.last_view_id

    def shut(self, reason: str) -> None:
        if not self.closed.is_set():
            self.close_reason = reason
            self.closed.set()
            self._wake.set()

    async def run_sender(self) -> None:
        """Send queued messages in order until the connection is shut."""
        try:
            while not self.closed.is_set():
                self._idle = not self._mailbox and self._rest is None
                await self._wake.wait()
                self._idle = False
                self._wake.clear()
                if self._rest is not None and not self.closed.is_set():
                    sending, waiting, kind, state_id = self._rest
                    self._rest = None
                    async with asyncio.timeout(self.send_timeout):
                        await _resume(sending, waiting)
                    self._sent(kind, state_id)
                while self._mailbox and not self.closed.is_set():
                    kind, text, state_id = self._mailbox.popleft()
                    async with asyncio.timeout(self.send_timeout):
                        await self._send(text)
                    self._sent(kind, state_id)
        except (TimeoutError, ConnectionError, RuntimeError, OSError) as exc:
            self.shut(f"sending failed: {type(exc).__name__}")
        except Exception as exc:  # a closed socket raises library-specific errors; all end this connection
            self.shut(f"sending failed: {type(exc).__name__}")
        finally:
            self._idle = False
            if self._rest is not None:
                self._rest[0].close()  # a send left unfinished by a shut connection
                self._rest = None
            if self._close is not None:
                with contextlib.suppress(Exception):
                    await self._close(1013 if "behind" in self.close_reason else 1000, self.close_reason[:100])


def _answer_first(source: Source) -> bool:
    """Whether an accepted change's feedback goes out before its views. Who acted on a screen (a phone, the host
    page, the display's keys) waits on it for the answer: it goes first. A tap on the controller or a bot's move
    is looked for on every screen at once: the views go first and the feedback's sentence follows (wording and
    sending it had held up every view of every tap by half a millisecond)."""
    return source not in ("board", "bot")


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether this thread is running `loop`."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def set_from_any_thread(loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
    """Set `event` of `loop` from whatever thread this is (a session's listeners run in the thread that applied the
    change). On the loop's own thread it is set at once: waking the loop through its self-pipe costs a system call
    and a turn of the loop on every tap."""
    if _on_loop(loop):
        event.set()
    else:
        loop.call_soon_threadsafe(event.set)


class Adaptive:
    """Runs a blocking call on the event loop while it is quick, in a worker thread once it is not.

    Handing a short call to a thread costs more than the call (the worker waits for the interpreter lock);
    a slow one (a heavy view, a slow disk) must not hold up every other connection.
    """

    def __init__(self, slow: float = 0.015) -> None:
        self.slow = slow
        self.inline = True

    async def __call__(self, fn: Callable[..., Any], *args: Any) -> Any:
        start = time.perf_counter()
        if self.inline:
            result = fn(*args)
            if time.perf_counter() - start > self.slow:
                self.inline = False
            return result
        result = await asyncio.to_thread(fn, *args)
        if time.perf_counter() - start < self.slow / 3:
            self.inline = True
        return result


@dataclass
class Outcome:
    """What became of an attempted action, as sent back to whoever tried it."""

    ok: bool
    state_id: int
    error: CompanionError | None = None
    accepted: Accepted | None = None


# How long the hint jobs wait for the connections' views to be on the wire (seconds).
VIEWS_OUT_PATIENCE = 0.05


class LiveSession:
    """A loaded session with its connections; actions are applied one at a time, views fanned out after each."""

    def __init__(self, hub: Hub, session: Session) -> None:
        self.hub = hub
        self.session = session
        self.id = session.id
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._dirty = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = session.subscribe(self._changed)
        self.run_views = Adaptive()
        self.run_actions = Adaptive()
        self._fanout_task = asyncio.create_task(self._fanout(), name=f"fanout-{session.id}")
        self.fanouts = 0
        self.phone_changes = 0
        # The seat that made the last accepted action: its phones hear the new state first.
        self._first: int | None = None
        # The state (and the count of touches) whose views went out last: the fan-out task skips a change that
        # `submit` or `undo` sent already.
        self._fanned = -1
        self._fanned_touch = 0
        self._touched = 0
        # Hints of the current state, per seat, as sent (a phone that connects now gets them at once); the task
        # computing the rest is cancelled when the state moves on.
        self._hints_state = -1
        self._hints: dict[int, str] = {}
        self._hint_data: dict[int, dict[str, Any]] = {}
        # Seats whose hints were asked for over REST (no connection of theirs may be open), and a signal for the
        # REST requests waiting on them; both are per state.
        self._hints_asked: set[int] = set()
        self._hints_ready = asyncio.Event()
        self._hint_task: asyncio.Task[None] | None = None
        # Set (and replaced) once no connection has a view waiting to go out: the hint jobs, the lamps and the
        # bots wait for that. One signal when the last view is out, not one per view: each waiter woken by each
        # of a change's eight sends cost a turn of the loop in the middle of the fan-out.
        self._all_out = asyncio.Event()
        # The last state whose views were offered to every connection (see after_views), and a signal for each;
        # the state it was loaded in needs no fan-out (each connection gets its first view as it attaches).
        self._offered_id = session.state_id
        self._offered = asyncio.Event()
        self._offering = False
        self._clock = CLOCKS.get(session.game.name)
        self._clock_key: Any = None
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_message = ""
        self._clock_ends = 0.0
        if self._clock is not None:
            self._dirty.set()  # a session resumed in the middle of a timed phase starts its clock
        from companion.bots.driver import BotDriver

        self.bots = BotDriver(self, hub.bot_executor, hub.bot_pause, hub.bot_patience, hub.bot_think)

    def _changed(self, session: Session, accepted: Accepted | None) -> None:
        # Called in whatever thread applied the change (a worker, or the board's input); the loop does the rest.
        set_from_any_thread(self._loop, self._dirty)

    def envelopes(self, viewers: set[Viewer]) -> dict[Viewer, tuple[int, str]]:
        """Each viewer's envelope as JSON text, with the state id; hints are not in it (they follow on their own)."""
        out: dict[Viewer, tuple[int, str]] = {}
        seats = self.session.store.seats(self.id)
        for viewer in viewers:
            envelope = self.session.view(viewer, hints=False, seats=seats)
            out[viewer] = (envelope["state_id"], dumps({"type": "view", "view": envelope}))
        return out

    # -- hints, after the views -------------------------------------------------------------------
    def _hint_seats(self) -> set[int]:
        """The seats whose hints are wanted: those with a phone connected, and those asked for over REST."""
        return {c.viewer for c in self.connections if isinstance(c.viewer, int)} | self._hints_asked

    def _hints_after_views(self) -> None:
        """Start computing the wanted seats' hints for the current state (the views have gone out)."""
        state_id = self.session.state_id
        if state_id != self._hints_state:
            self._hints_state = state_id
            self._hints = {}
            self._hint_data = {}
            self._hints_asked = set()
            self._hints_ready.set()  # REST requests waiting on the old state's hints look again
            self._hints_ready = asyncio.Event()
            if self._hint_task is not None:
                self._hint_task.cancel()  # the state moved on: its hints are no longer wanted
                self._hint_task = None
        wanted = self._hint_seats() - set(self._hints)
        if wanted and (self._hint_task is None or self._hint_task.done()):
            self._hint_task = asyncio.create_task(self._compute_hints(), name=f"hints-{self.id}")

    def cached_hints(self, seat: int, state_id: int) -> dict[str, Any] | None:
        """The seat's hints of state `state_id` when they are ready; otherwise None, and they are being computed
        (in the hint pool, like a phone's), so a REST view never waits for them."""
        if self._hints_state == state_id and seat in self._hint_data:
            return self._hint_data[seat]
        if self.session.state_id == state_id:
            self._hints_after_views()
            if seat not in self._hints_asked:
                self._hints_asked.add(seat)
                self._hints_after_views()
        return None

    async def seat_envelope(self, seat: int) -> dict[str, Any]:
        """A seat's envelope for a REST request: its hints only when already computed for this state (else
        `hints_pending`, and they are started in the hint pool), so the answer never waits for a hint search."""
        envelope = await asyncio.to_thread(self.session.view, seat, hints=False)
        hints = self.cached_hints(seat, envelope["state_id"])
        if hints is None:
            envelope["hints_pending"] = True
        else:
            envelope["hints"] = hints
        return envelope

    async def hints_for(self, seat: int, patience: float = 30.0) -> tuple[int, dict[str, Any]]:
        """(state id, the seat's hints) for the current state, waiting for the pool; if the state moves on
        meanwhile, the new state's. Hints are advice: when they cannot be had (their computation failed, see
        `hub.errors`) the answer is empty hints rather than an error."""
        ends = self._loop.time() + patience
        while True:
            ready = self._hints_ready
            state_id = self.session.state_id
            found = self.cached_hints(seat, state_id)
            if found is not None:
                return state_id, found
            left = ends - self._loop.time()
            if left <= 0:
                return state_id, {}
            # Woken when any seat's hints arrive or the state moves on; the timeout catches a state that moved on
            # with no phone connected (no fan-out runs then) and a computation that failed.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), timeout=min(left, 0.5))

    async def _compute_hints(self) -> None:
        state_id, state = self.session.snapshot()
        if state_id != self._hints_state:
            return
        await self._views_out(state_id)
        if state_id != self._hints_state or state_id != self.session.state_id:
            return
        game = self.session.game
        current = set(game.current_seats(state))
        seats = sorted(self._hint_seats() - set(self._hints),
                       key=lambda s: (s not in current, s))  # whoever must act now first

        async def one(seat: int) -> tuple[int, dict[str, Any] | None]:
            try:
                return seat, await self.hub.hint_pool.compute(game, state, seat)
            except Exception as exc:  # hints are advice: a failure costs the hints, never the game
                self.hub.errors.append(f"session {self.id}: hints for seat {seat + 1} failed: {exc!r}")
                return seat, None

        jobs = [asyncio.create_task(one(seat)) for seat in seats]
        try:
            for done in asyncio.as_completed(jobs):
                seat, hints = await done
                if hints is None or self._hints_state != state_id:
                    continue
                text = dumps({"type": "hints", "state_id": state_id, "seat": seat, "hints": hints})
                self._hints[seat] = text
                self._hint_data[seat] = hints
                self._hints_ready.set()
                self._hints_ready = asyncio.Event()
                for connection in list(self.connections):
                    if connection.viewer == seat:
                        connection.offer("hints", text, state_id)
        finally:
            for job in jobs:
                job.cancel()  # when the state moved on: the jobs not yet started never run
            self._hints_ready.set()
            self._hints_ready = asyncio.Event()
        if self._hint_seats() - set(self._hints) - {seat for seat in seats if seat not in self._hint_data}:
            # A phone of another seat connected (or its hints were asked for) meanwhile.
            self._loop.call_soon(self._hints_after_views)

    async def after_views(self) -> None:
        """Until the current state's views are offered, then until they are on the wire (see `_views_out`).

        What a change starts besides its views (the controller's lamps, the bots' look at the table) runs in
        worker threads; started while the views were being made and sent, those threads took the interpreter
        from the loop and delayed every phone's view by about half a millisecond."""
        state_id = self.session.state_id
        # Every change is fanned out (by the action that made it, or the fan-out task), and `_fan_out` signals
        # even when it fails or has no one to send to: no timeout is needed here.
        while self._offered_id < state_id and self.connections:
            await self._offered.wait()
        await self._views_out(state_id)

    async def _views_out(self, state_id: int) -> None:
        """Until every connection has put the view of `state_id` on the wire, or `VIEWS_OUT_PATIENCE` has passed (a
        phone that lags must not cost everyone their hints). Handing out the hint jobs (the state pickled for each
        seat) and the worker's search compete with the senders for the interpreter and the cores: with the jobs
        handed out at once, the last phones' views waited for them."""
        ends = self._loop.time() + VIEWS_OUT_PATIENCE
        while any(c.view_pending(state_id) for c in self.connections):
            left = ends - self._loop.time()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self._all_out.wait()

    def _a_view_sent(self) -> None:
        """A connection put a view on the wire: when it was the last one waiting, the waiters hear it."""
        if self._offering:
            return  # the fan-out asks once its offers are all made
        if not any(c.view_pending(c.last_view_id) for c in self.connections):
            self._all_out.set()
            self._all_out = asyncio.Event()

    def _offer_cached_hints(self, connection: Connection, state_id: int) -> None:
        if connection.viewer is not None and self._hints_state == state_id:
            text = self._hints.get(connection.viewer)
            if text is not None:
                connection.offer("hints", text, state_id)
                return
        self._hints_after_views()

    async def _fanout(self) -> None:
        """Fan out every change that `submit` and `undo` did not send themselves (the clock's, a thread's, names)."""
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            async with self.lock:
                pass  # an action being applied says how it went (its feedback) before anyone sees its result
            if self.session.state_id == self._fanned and self._touched == self._fanned_touch:
                continue  # already sent by the action that made it
            await self._fan_out()

    async def _fan_out(self) -> None:
        """Send every connection the view of the current state, then start the hints."""
        fanned = self.session.state_id
        self._fanned, self._fanned_touch = fanned, self._touched
        try:
            await self._offer_views()
        finally:
            self._offered_id = max(self._offered_id, fanned)
            self._offered.set()
            self._offered = asyncio.Event()

    async def _offer_views(self) -> None:
        if self._clock is not None:
            await self._check_clock()
        viewers = {c.viewer for c in self.connections}
        if not viewers:
            return
        try:
            texts = await self.run_views(self.envelopes, viewers)
        except Exception as exc:  # a view that fails must not stop later fan-outs
            self.hub.errors.append(f"session {self.id}: view failed: {exc!r}")
            return
        self.fanouts += 1
        # Each offer may send at once (see Connection): who waits for every view to be out hears it once, after.
        self._offering = True
        try:
            for connection in self._in_order():
                state_id, text = texts.get(connection.viewer, (None, ""))
                if text:
                    connection.offer("view", text, state_id)
        finally:
            self._offering = False
        self._a_view_sent()
        self._hints_after_views()

    def _in_order(self) -> list[Connection]:
        """The connections in the order their views are queued (and their senders run): the phones of the seat
        that just acted, then the displays, then the other phones."""
        first = self._first

        def rank(connection: Connection) -> int:
            viewer = connection.viewer
            return 0 if viewer is not None and viewer == first else 1 if viewer is None else 2

        return sorted(self.connections, key=rank)

    async def attach(self, connection: Connection) -> None:
        """Register a connection and queue its first full view (and the running clock, if any)."""
        before = self.phones()
        connection.on_view_sent = self._a_view_sent
        self.connections.add(connection)
        self._phones_moved(before)
        texts = await self.run_views(self.envelopes, {connection.viewer})
        state_id, text = texts[connection.viewer]
        connection.offer("view", text, state_id)
        self._offer_cached_hints(connection, state_id)
        if self._clock_key is not None:
            connection.offer("clock", self._clock_text())

    # -- time limits (Bohnanza's trading) ----------------------------------------------------------
    async def _check_clock(self) -> None:
        assert self._clock is not None
        try:
            # The public game view is made once per state (the fan-out's public view shares it).
            deadline = self._clock(await self.run_views(self.session.game_view, None))
        except Exception as exc:
            self.hub.errors.append(f"session {self.id}: clock failed: {exc!r}")
            return
        key = deadline.key if deadline else None
        if key == self._clock_key:
            return
        if self._clock_task is not None:
            self._clock_task.cancel()
            self._clock_task = None
        self._clock_key = key
        if deadline is not None:
            self._clock_ends = self._loop.time() + deadline.seconds
            self._clock_message = deadline.what
            self._clock_task = asyncio.create_task(self._expire(deadline), name=f"clock-{self.id}")
        text = self._clock_text()
        for connection in list(self.connections):
            connection.offer("clock", text)

    def _clock_text(self) -> str:
        if self._clock_key is None:
            return dumps({"type": "clock", "what": None, "seconds": None})
        left = max(0.0, self._clock_ends - self._loop.time())
        return dumps({"type": "clock", "what": self._clock_message, "seconds": round(left, 1)})

    async def _expire(self, deadline: Deadline) -> None:
        await asyncio.sleep(deadline.seconds)
        self._clock_task = None
        assert self._clock is not None
        async with self.lock:
            # Only if it is still the same phase (a change may not have reached the clock yet); then no state id
            # is needed: the limit holds whatever was done meanwhile.
            envelope = await asyncio.to_thread(self.session.view, None)
            now = self._clock(envelope["view"])
            if now is None or now.key != deadline.key:
                return
            try:
                accepted = await asyncio.to_thread(self.session.submit, deadline.action, HOST, None)
            except CompanionError as exc:
                self.refused(exc, HOST, "host", deadline.action)
                return
            self.accepted(accepted, HOST, "host")

    def touch(self) -> None:
        """Send everyone a fresh view (after a change outside the game state: names, colours)."""
        self._touched += 1
        self._dirty.set()

    def detach(self, connection: Connection) -> None:
        before = self.phones()
        self.connections.discard(connection)
        self._phones_moved(before)
        self._a_view_sent()  # a phone that left with its view unsent is not waited for

    def phones(self) -> set[int]:
        """The seats with a phone connected now."""
        return {c.viewer for c in self.connections if isinstance(c.viewer, int)}

    def _phones_moved(self, before: set[int]) -> None:
        """A phone came or went: the public connections hear that at once (a display drops a seat's join code the
        moment its phone is on). The message says only that it changed; who is connected is the host's to ask
        (`/api/host/sessions/{sid}/phones`)."""
        if self.phones() == before:
            return
        self.phone_changes += 1
        text = dumps({"type": "phones"})
        for connection in list(self.connections):
            if connection.viewer is None:
                connection.offer("phones", text)

    async def refresh(self, connection: Connection) -> None:
        texts = await self.run_views(self.envelopes, {connection.viewer})
        state_id, text = texts[connection.viewer]
        connection.offer("view", text, state_id)
        self._offer_cached_hints(connection, state_id)

    # -- acting ----------------------------------------------------------------------------------
    async def submit(
        self,
        raw: Action | dict[str, Any],
        actor: Seat,
        state_id: int | None,
        source: Source,
        origin: Connection | None = None,
        still: Callable[[], bool] | None = None,
    ) -> Outcome:
        """Apply one action (queued behind any other of this session) and report it to the table.

        `origin` is the connection the action came over (None for a REST call, the controller, the clock): its
        sender hears the whole answer there, everyone else only what the table may know. `still`, checked once it
        is this action's turn, withdraws it silently when False (a bot whose seat the host took back while it was
        thinking).
        """
        action_json = raw.to_json() if isinstance(raw, Action) else raw
        self.hub.collector.busy()
        async with self.lock:
            if still is not None and not still():
                return Outcome(False, self.session.state_id)
            try:
                accepted = await self.run_actions(self.session.submit, raw, actor, state_id)
            except CompanionError as exc:
                self.refused(exc, actor, source, action_json, origin)
                return Outcome(False, self.session.state_id, exc)
            seat = accepted.action.seat  # whoever sent it (a phone, the controller, the host acting for a seat)
            self._first = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
            await self._answer_and_views(source, lambda: self.accepted(accepted, actor, source, origin))
        return Outcome(True, accepted.state_id, accepted=accepted)

    async def undo(self, actor: Seat, state_id: int | None, source: Source, origin: Connection | None = None
                   ) -> Outcome:
        self.hub.collector.busy()
        async with self.lock:
            try:
                new_id = await self.run_actions(self.session.undo, actor, state_id)
            except CompanionError as exc:
                self.refused(exc, actor, source, {"action": "undo"}, origin)
                return Outcome(False, self.session.state_id, exc)
            seat = actor if isinstance(actor, int) else None
            # A full sentence naming who undid it (the template and params let each client say it in its language).
            if seat is None:
                template, params = UNDONE_BY_HOST, {}
            else:
                template, params = UNDONE_BY_PLAYER, {"player": seat}
            text = dumps({"type": "feedback", "ok": True, "code": "ok", "seat": seat, "source": source,
                          "text": self._worded(template, params), "template": template, "params": params,
                          "lines": [{"template": template, "params": params}],
                          "action": {"seat": actor, "action": "undo"}})

            def answer() -> None:
                for connection in [*self._audience(actor, origin, public=False),
                                   *self._audience(actor, origin, public=True)]:
                    connection.offer("feedback", text)
                self.hub.feedback_sent += 1

            await self._answer_and_views(source, answer)
        return Outcome(True, new_id)

    async def _answer_and_views(self, source: Source, answer: Callable[[], None]) -> None:
        """Send an accepted change's feedback (`answer`) and every connection's new view, in the order
        `_answer_first` gives for `source`. An answer sent first is on the wire already (an idle connection sends
        at once) or queued before the views. The views go out from here, not from the fan-out task: waking that
        task would wait for the caller's own work after the change (the controller's beep and lamps) and more
        turns of the loop. With both out, the store may copy its log back in a thread (`Hub.tidy_store`)."""
        if _answer_first(source):
            answer()
            await self._fan_out()
        else:
            await self._fan_out()
            answer()
        self.hub.tidy_store()

    def _audience(self, actor: Seat | None, origin: Connection | None, *, public: bool) -> list[Connection]:
        """Who hears an attempt: with `public`, every public connection; else the sender's own connection (a
        phone), or, without one (a REST call, the controller acting for a seat), the phones of the acting seat."""
        if public:
            return [c for c in list(self.connections) if c.viewer is None]
        if origin is not None and origin.viewer is not None:
            return [origin]
        if isinstance(actor, int) and not isinstance(actor, bool):
            return [c for c in list(self.connections) if c.viewer == actor]
        return []

    def accepted(self, accepted: Accepted, actor: Seat, source: Source, origin: Connection | None = None) -> None:
        """An accepted action: the sender hears the lines it may read, the public stream the public projection."""
        action, log = accepted.action, accepted.log
        seat = action.seat if isinstance(action.seat, int) else None
        # The text names the players (never a seat number); `lines` carries each line's template and params.
        names = self.session.names()
        viewer = actor if isinstance(actor, int) and not isinstance(actor, bool) else None
        readable = [m for m in log if m.visible(viewer)]
        own = [self.session.worded(m, names) for m in readable]
        mine = dumps({"type": "feedback", "ok": True, "code": "ok", "seat": seat, "source": source,
                      "text": "; ".join(line["text"] for line in own), "lines": _lines(own),
                      "action": action.to_json()})
        for connection in self._audience(actor, origin, public=False):
            connection.offer("feedback", mine)
        # The public copy is made once the sender's is on its way, and only for a public stream that listens. Its
        # lines are the sender's public ones (a line for everyone is readable by any viewer), not worded again.
        displays = self._audience(actor, origin, public=True)
        if displays:
            seen = [line for m, line in zip(readable, own, strict=True) if m.visible_to is None]
            public = dumps({"type": "feedback", "ok": True, "code": "ok", "seat": seat, "source": source,
                            "text": "; ".join(line["text"] for line in seen), "lines": _lines(seen),
                            "action": self.session.game.public_action(action, log)})
            for connection in displays:
                connection.offer("feedback", public)
        self.hub.feedback_sent += 1

    def _worded(self, template: str, params: dict[str, Any]) -> str:
        return self.session.worded(msg(template, **params))["text"]

    def refused(self, exc: CompanionError, actor: Seat | None, source: Source, action: Any,
                origin: Connection | None = None) -> None:
        """A refused attempt: the sender hears the whole reason; the table hears it only when the game says the
        reason is public and no seat tried it itself, otherwise "a move was refused" (with who tried which known
        kind of action)."""
        game = self.session.game
        players = self.session.config.players
        attempt = public_attempt(game, action if isinstance(action, dict) else None, players)
        seat = attempt.get("seat") if attempt else None
        if not isinstance(seat, int) and isinstance(actor, int) and not isinstance(actor, bool):
            seat = actor
        base = {"type": "feedback", "ok": False, "code": exc.code, "seat": seat, "source": source}
        mine = dumps({**base, "text": exc.reason, **why(exc), "action": attempt})
        for connection in self._audience(actor, origin, public=False):
            connection.offer("feedback", mine)
        # A seat's own try (from its phone, or with its token on a public socket) is never worded to the table.
        seat_tried = isinstance(actor, int) and source in ("phone", "display")
        if refusal_is_public(game, exc) and not seat_tried:
            public = dumps({**base, "text": exc.reason, **why(exc), "action": attempt})
        else:
            public = dumps({**base, "text": REFUSED, "template": REFUSED, "params": {}, "action": attempt})
        for connection in self._audience(actor, origin, public=True):
            connection.offer("feedback", public)
        self.hub.feedback_sent += 1

    def note(
        self,
        ok: bool,
        seat: Seat | None,
        text: str,
        source: Source = "board",
        template: str = "",
        params: dict[str, Any] | None = None,
        *,
        public: bool | None = None,
    ) -> None:
        """Answer an input that made no game action (a stone picked, a press refused before the rules were asked).

        A taken input (`ok`) is public by construction; a refusal reaches the public stream in words only when
        `public` says its reason names nothing private (the router asks the game), else as "a move was refused".
        That seat's phone hears it in full. `template` and `params` let each client translate it.
        """
        shown_seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        full = {"type": "feedback", "ok": ok, "code": "note" if ok else "refused", "seat": shown_seat,
                "source": source, "text": text, "template": template or text, "params": plain_params(params or {}),
                "action": None}
        full_text = dumps(full)
        said = ok if public is None else public
        public_text = full_text if said else dumps({**full, "text": REFUSED, "template": REFUSED, "params": {}})
        for connection in list(self.connections):
            if connection.viewer is None:
                connection.offer("feedback", public_text)
            elif connection.viewer == shown_seat:
                connection.offer("feedback", full_text)
        self.hub.feedback_sent += 1

    async def close(self) -> None:
        if self._clock_task is not None:
            self._clock_task.cancel()
        if self._hint_task is not None:
            self._hint_task.cancel()
        await self.bots.close()
        self._unsubscribe()
        self._fanout_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._fanout_task
        for connection in list(self.connections):
            connection.shut("the server is stopping")


def _lines(worded: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"template": line["template"], "params": plain_params(line["params"])} for line in worded]


def why(exc: CompanionError) -> dict[str, Any]:
    """A refusal's reason as a message id and its arguments, for the clients to translate."""
    return {"template": exc.template, "params": plain_params(exc.params)}


def plain_params(params: dict[str, Any]) -> dict[str, Any]:
    """Params as JSON carries them: a tuple becomes a list; anything but a string, number or None, its text."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, tuple | list):
            out[key] = [v if isinstance(v, str | int | float | bool) or v is None else str(v) for v in value]
        elif isinstance(value, str | int | float | bool) or value is None:
            out[key] = value
        else:
            out[key] = str(value)
    return out


# Where simulated controller events go (the display's development keys): set by `companion play`.
BoardInput = Callable[[int, dict[str, Any]], Awaitable[None]]


# Seconds after the hub is made that the hint workers are started.
HINT_WARM_DELAY = 1.0


class Hub:
    """Owns the store and the live sessions of one server; created and closed by the app's lifespan."""

    def __init__(
        self,
        store: Store,
        *,
        actions_per_second: float = 10.0,
        action_burst: int = 20,
        hint_workers: int | None = None,
        bot_pause: float = 1.0,
        bot_patience: float = 20.0,
        bot_workers: str = "process",
        bot_think: dict[str, float] | None = None,
    ) -> None:
        self.store = store
        # Hints are computed here, off the fan-out path (see companion/web/hints.py); None: sized for the machine.
        self.hint_pool = shared_pool(hint_workers)
        # The workers start a moment after the server (a new process importing the engines would compete with the
        # server's own start-up for the cores); a hint asked for sooner starts them itself.
        self._warming: asyncio.TimerHandle | None = None
        self._warm_due = False  # the delay is over: a session loaded from now on has its game's tables built at once
        try:
            self._warming = asyncio.get_running_loop().call_later(HINT_WARM_DELAY, self._warm_hints)
        except RuntimeError:
            self._warm_hints()
        # Bot seats: the pause before a bot's move, how long it waits for answers, where it thinks, for how long.
        self.bot_pause = bot_pause
        self.bot_patience = bot_patience
        self.bot_workers = bot_workers
        self.bot_think = dict(bot_think or {})
        self._bot_pool: Executor | None = None
        self.sessions: dict[int, LiveSession] = {}
        self._loading = asyncio.Lock()
        self.limiter = TokenBucket(actions_per_second, action_burst)
        self.errors: deque[str] = deque(maxlen=50)
        self.feedback_sent = 0
        self.board_input: BoardInput | None = None
        # The game whose deck is being enrolled from the host page: the controller's taps go to that enrolment.
        self.enrolling: str | None = None
        self.enrolling_lock = asyncio.Lock()
        # Full garbage collections wait until the table is quiet (started by the app once it is serving).
        self.collector = IdleCollector()
        self._checkpoint: asyncio.Future[None] | None = None  # the store's checkpoint running in a thread

    def tidy_store(self) -> None:
        """Once enough has been committed, copy the WAL into the database file (`Store.checkpoint`) in a thread:
        called after a change's views and answer are out, so the copy and its fsync run while the table waits for
        the next move, and no tap's commit pays for them."""
        if self._checkpoint is not None or not self.store.checkpoint_wanted:
            return
        self._checkpoint = asyncio.get_running_loop().run_in_executor(None, self.store.checkpoint)
        self._checkpoint.add_done_callback(self._checkpointed)

    def _checkpointed(self, future: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not future.cancelled() and future.exception() is not None:
            # Nothing is lost: the WAL holds every commit, and the next checkpoint (or the store's bound) copies it.
            self.errors.append(f"checkpoint failed: {future.exception()!r}")

    def _warm_hints(self) -> None:
        """Start the hint workers with the tables of the games being served."""
        self._warm_due = True
        self.hint_pool.warm(tuple({live.session.game.name: live.session.game
                                   for live in self.sessions.values()}.values()))

    def _serving(self, live: LiveSession) -> LiveSession:
        """A session just loaded: its game's hint tables are built too, if the workers have started."""
        self.sessions[live.id] = live
        if self._warm_due:
            self.hint_pool.warm((live.session.game,))
        return live

    async def board_event(self, sid: int, event: dict[str, Any]) -> None:
        """A simulated controller event for session `sid`, handed to the input router of `companion play`."""
        if self.board_input is None:
            raise NotAllowed("no controller is attached here; start the table with `companion play`")
        await self.board_input(sid, event)

    async def live(self, sid: int) -> LiveSession:
        """The loaded session `sid` (replayed from the log on first use)."""
        found = self.sessions.get(sid)
        if found is not None:
            return found
        if isinstance(sid, bool) or not isinstance(sid, int) or not 1 <= sid <= MAX_ID:
            raise UnknownSession("there is no such game")
        async with self._loading:
            found = self.sessions.get(sid)
            if found is None:
                try:
                    session = await asyncio.to_thread(Session, self.store, sid)
                except KeyError:
                    raise UnknownSession("there is no game {number}", number=sid) from None
                found = self._serving(LiveSession(self, session))
        return found

    async def adopt(self, session: Session) -> LiveSession:
        """Serve a Session object created elsewhere (the host page, `companion serve`, the board)."""
        async with self._loading:
            if session.id not in self.sessions:
                self._serving(LiveSession(self, session))
        return self.sessions[session.id]

    async def authorise(self, sid: int, token: str | None) -> tuple[LiveSession, Seat]:
        """The live session and who holds `token` in it: a seat number or HOST."""
        live = await self.live(sid)
        if not token:
            raise MissingToken("this needs the token from the join link")
        if not is_plain_token(token):
            raise NotAllowed("that link is not valid for this game")
        return live, live.session.seat_for_token(token)

    def check_rate(self, token: str) -> None:
        if not self.limiter.take(token):
            raise RateLimited("too many actions at once; wait a moment")

    def bot_executor(self) -> Executor:
        """Where bots think: one worker process (or thread), started when a bot first moves."""
        if self._bot_pool is None:
            from companion.bots.driver import make_executor

            self._bot_pool = make_executor(self.bot_workers)
        return self._bot_pool

    async def close(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
        for live in list(self.sessions.values()):
            await live.close()
        self.sessions.clear()
        if self._checkpoint is not None:
            await asyncio.wait([self._checkpoint])
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=False, cancel_futures=True)
            self._bot_pool = None


