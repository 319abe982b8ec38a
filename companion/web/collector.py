"""Python's full garbage collections kept off a tap's path: they wait until the table has been quiet a moment."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable

# A full collection of the server's heap paused everything for 20–130 ms on the development machine (FastAPI's and
# pydantic's objects, the session's states), several times a game, at whatever moment the allocation counts said:
# the slowest taps of the benches. Pythons before 3.14 start one once ten collections of the middle generation have
# run (`gc.get_threshold()[2]`); raising that number turns them off, and this collector runs them itself instead.
NEVER = 1 << 30
# The interpreter's own thresholds while collectors hold them (two servers in one process, as in the tests, share
# the interpreter: the last to stop puts them back).
_saved: list[tuple[int, int, int]] = []
_holders = [0]


class IdleCollector:
    """Runs the full collections the interpreter would, but only once nothing has happened for `quiet` seconds,
    and at most every `every` seconds. What the server made while starting is frozen as it starts (`gc.freeze`):
    it lives as long as the server, so no collection needs to look at it again. `stop` puts everything back."""

    def __init__(self, quiet: float = 1.0, every: float = 20.0, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.quiet = quiet
        self.every = every
        self.clock = clock
        self.last_busy = clock()
        self.last_full = clock()
        self.collections = 0  # full collections run here
        self._task: asyncio.Task[None] | None = None
        self._holding = False  # whether this collector holds the interpreter's thresholds

    def busy(self) -> None:
        """Something happened at the table (an action, an undo): a collection waits for the next quiet moment."""
        self.last_busy = self.clock()

    def due(self) -> bool:
        """Whether a full collection should run now: the table is quiet, the last one is `every` seconds old, and
        the middle generation has been collected since (otherwise nothing has grown old enough to look at)."""
        now = self.clock()
        return (now - self.last_busy >= self.quiet and now - self.last_full >= self.every
                and gc.get_count()[2] > 0)

    def collect(self) -> None:
        gc.collect()
        self.collections += 1
        self.last_full = self.clock()

    def start(self) -> None:
        """Take over the full collections (call once the server has started and loaded its game): the interpreter
        runs none from now on, and what is there now is frozen, without a collection first. Collecting the fresh
        heap first took 43–51 ms (a fresh server holds no garbage to find: none, measured); run 3 s after the
        start it landed on the taps of a game played at once (a 50 ms stall in the web bench), and at the first
        quiet second on the first tap after it (45 ms in the play bench). Freezing alone takes microseconds."""
        if self._task is not None:
            return
        self._take_over()
        gc.freeze()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="idle-collector")

    def _take_over(self) -> None:
        if not _holders[0]:
            _saved[:] = [gc.get_threshold()]
        _holders[0] += 1
        first, middle, _ = _saved[0]
        gc.set_threshold(first, middle, NEVER)
        self._holding = True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.quiet)
            if self.due():
                self.collect()

    async def stop(self) -> None:
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        if not self._holding:
            return
        self._holding = False
        _holders[0] -= 1
        if not _holders[0]:
            gc.set_threshold(*_saved[0])
            gc.unfreeze()
