"""The server's side of a bot seat: when a bot is to act it thinks in a worker process, then plays like a phone.

Each live session has one driver. After every change it looks whether a seat played by a bot may act; if so it
waits a short pause (so the people at the table can follow), hands the seat's canonical information set — never
the real state — to a worker, and submits the answer against the state id it thought about, so a move made
meanwhile by someone else makes the bot's answer stale and it thinks again. The event loop only waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import random
import secrets
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from companion.bots import Budget, make_bot
from companion.bots.base import canonical
from companion.core.registry import get_game
from companion.core.workers import follow_parent
from companion.web.hub import set_from_any_thread

# How long a bot waits for people to answer its open offers before it gives up waiting.
PATIENCE = 20.0


def decide(game_name: str, level: str, seconds: float | None, info: Any, seat: int, seed: int) -> dict[str, Any] | None:
    """In the worker: the bot's move (as JSON) from the seat's information set (a state as JSON), or None."""
    game = get_game(game_name)
    state = game.state_from_json(info)
    legal = game.legal_actions(state, seat)
    if not legal:
        return None
    bot = make_bot(game_name, level, None if seconds is None else Budget(seconds))
    action = bot.choose(game, state, seat, legal, random.Random(seed))
    return None if action is None else action.to_json()


def give_up_waiting(game_name: str, info: Any, seat: int) -> dict[str, Any] | None:
    """In the worker: what a bot that waited long enough for answers does now (ends its trading), or None."""
    from companion.bots import hooks

    game = get_game(game_name)
    state = game.state_from_json(info)
    policy = hooks(game_name).policy()
    impatient: Callable[..., Any] | None = getattr(policy, "give_up_waiting", None)
    if impatient is None:
        return None
    action = impatient(state, seat, game.legal_actions(state, seat))
    return None if action is None else action.to_json()


def make_executor(kind: str) -> Executor:
    """`process` (the default: a search never holds the server's interpreter lock) or `thread`."""
    if kind == "thread":
        return ThreadPoolExecutor(1, thread_name_prefix="bot")
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=follow_parent,
                               initargs=(os.getpid(),))


class BotDriver:
    """Plays the bot seats of one live session (see the module's docstring)."""

    def __init__(self, live: Any, executor: Callable[[], Executor], pause: float, patience: float = PATIENCE,
                 think: dict[str, float] | None = None) -> None:
        self.live = live
        self.session = live.session
        self.executor = executor
        self.pause = pause
        self.patience = patience
        self.think = think or {}
        self.moves = 0
        self.stale = 0
        self.played: list[tuple[int, dict[str, Any]]] = []  # (seat, action) of every move a bot made here
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._waiting: tuple[int, float] | None = None  # (state id, since) while every bot declined to act
        self._unsubscribe = self.session.subscribe(lambda *_: set_from_any_thread(self._loop, self._wake))
        self._task = asyncio.create_task(self._run(), name=f"bots-{self.session.id}")
        self._wake.set()

    def wake(self) -> None:
        self._wake.set()

    async def close(self) -> None:
        self._unsubscribe()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._play()
            except Exception as exc:  # a bot that fails must not stop the session; the host can take the seat
                self.live.hub.errors.append(f"session {self.session.id}: bot failed: {exc!r}")

    def _pending(self) -> tuple[int, list[tuple[int, str, Any]]]:
        """The state id and, per bot seat that may act now, its level and information set (as JSON)."""
        session = self.session
        with session._lock:
            state_id, state = session.state_id, session.state
            bots = session.bots()
            if session.status != "open" or session.game.is_over(state) or not bots:
                return state_id, []
            game = session.game
            out = []
            for seat in game.current_seats(state):
                if isinstance(seat, int) and seat in bots and game.legal_actions(state, seat):
                    out.append((seat, bots[seat], game.state_to_json(canonical(game, state, seat))))
            return state_id, out

    def _still(self, seat: int, level: str) -> Callable[[], bool]:
        """Whether the bot still holds the seat at that level (the host may have taken it back meanwhile)."""
        return lambda: self.session.bots().get(seat) == level

    async def _play(self) -> None:
        await self.live.after_views()  # a look at the table (in a thread) must not delay anyone's view of it
        state_id, pending = await asyncio.to_thread(self._pending)
        if not pending:
            self._waiting = None
            return
        await asyncio.sleep(self.pause)
        if self.session.state_id != state_id:
            self._wake.set()
            return
        name = self.session.game.name
        impatient = self._waiting is not None and self._waiting[0] == state_id and (
            self._loop.time() - self._waiting[1] >= self.patience)
        for seat, level, info in pending:
            if impatient:
                job = functools.partial(give_up_waiting, name, info, seat)
            else:
                job = functools.partial(decide, name, level, self.think.get(level), info, seat, secrets.randbits(64))
            answer = await self._loop.run_in_executor(self.executor(), job)
            if self.session.state_id != state_id:
                self.stale += 1
                self._wake.set()  # someone moved while it thought: think again about the new state
                return
            if answer is None:
                continue
            outcome = await self.live.submit(answer, seat, state_id, "bot", still=self._still(seat, level))
            if outcome.ok:
                self.moves += 1
                self.played.append((seat, outcome.accepted.action.to_json() if outcome.accepted else answer))
                self._waiting = None
            return
        # Every bot seat declined (it waits for people, e.g. answers to its offers); look again after a while.
        if self._waiting is None or self._waiting[0] != state_id:
            self._waiting = (state_id, self._loop.time())
        self._loop.call_later(self.patience, self._wake.set)
