"""Hints computed off the fan-out path: a small pool of worker processes (or one worker thread) shared by the hub.

A phone's hints can be slow (a Shifting Stones hand grown by skips searches for up to its budget), and the views
of every seat must never wait for them. The hub sends the views first and asks this pool for each seat's hints
afterwards; a worker process keeps the event loop's interpreter free, so a search in progress does not slow the
next action's fan-out. Workers are started with `spawn` (no locks inherited from the server's threads) and
import the game from the pickled game object (so a game registered by a test or a plugin works the same way).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import multiprocessing
import os
import threading
from typing import Any

from companion.core.game import Game
from companion.core.seats import Seat
from companion.core.workers import follow_parent

# Processes for hints: on a Raspberry Pi 4 (4 cores) two, leaving a core each to the server and the display; on a
# 2-core machine one. `COMPANION_HINT_WORKERS=0` computes hints in one thread of the server instead.
ENV_WORKERS = "COMPANION_HINT_WORKERS"


def default_workers() -> int:
    """How many hint processes suit this machine (0: a thread in the server)."""
    configured = os.environ.get(ENV_WORKERS)
    if configured is not None and configured.strip().isdigit():
        return int(configured)
    cores = os.cpu_count() or 1
    return max(1, min(2, cores - 2))


def compute_hints(game: Game[Any], state: Any, seat: Seat) -> dict[str, Any]:
    """One seat's hints (runs in a worker)."""
    return game.hints(state, seat)


def _warm(games: tuple[Game[Any], ...]) -> None:
    """In a worker: build these games' hint tables before their first real job (the engines are imported with
    them)."""
    for game in games:
        game.warm_up()


class HintPool:
    """Where hints are computed: worker processes, or one worker thread when `workers` is 0."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()
        self._warmed: set[str] = set()  # the games whose tables the workers were asked to build

    @property
    def executor(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._executor is None:
                if self.workers > 0:
                    context = multiprocessing.get_context("spawn")
                    self._executor = concurrent.futures.ProcessPoolExecutor(
                        self.workers, mp_context=context, initializer=follow_parent, initargs=(os.getpid(),))
                else:
                    self._executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="hints")
            return self._executor

    def warm(self, games: tuple[Game[Any], ...] = ()) -> None:
        """Start the workers now (in the background) and have each build the hint tables of `games` it has not
        been asked to yet, so the first hints do not wait for either. Only the games being served: Shifting
        Stones' tables are a second of CPU and 15 MB in each worker, wasted on a table playing Power Grid."""
        games = tuple(g for g in games if g.name not in self._warmed)
        if not games and self._executor is not None:
            return  # the workers run already and have nothing new to build
        self._warmed.update(g.name for g in games)
        executor = self.executor
        for _ in range(max(1, self.workers)):
            executor.submit(_warm, games)

    async def compute(self, game: Game[Any], state: Any, seat: Seat) -> dict[str, Any]:
        """A seat's hints; cancelling the caller drops a job that has not started."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, compute_hints, game, state, seat)
        except concurrent.futures.BrokenExecutor:
            # A worker died (killed, out of memory): start afresh next time, and answer this one here.
            self.shutdown()
            return await asyncio.to_thread(compute_hints, game, state, seat)

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
            self._warmed = set()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


_POOLS: dict[int, HintPool] = {}


def shared_pool(workers: int | None = None) -> HintPool:
    """The process-wide pool of this size (a server, or a test run, starts its workers once)."""
    size = default_workers() if workers is None else workers
    pool = _POOLS.get(size)
    if pool is None:
        pool = _POOLS[size] = HintPool(size)
    return pool


@atexit.register
def _shutdown_all() -> None:
    for pool in _POOLS.values():
        pool.shutdown()
