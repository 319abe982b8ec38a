"""A fault-injecting proxy between the host and a (simulated) board, over real pseudo-terminals.

It opens the board's port, offers the host a port of its own behind a stable symlink (like the udev name),
and passes lines both ways, now and then corrupting a byte, dropping or repeating a line, or holding it back
(so later lines overtake it). `unplug()` closes the host's side as a pulled cable would; `replug()` offers a
new pseudo-terminal behind the same symlink.
"""

from __future__ import annotations

import contextlib
import heapq
import os
import random
import select
import threading
import time
import tty
from pathlib import Path


class FaultProxy:
    def __init__(
        self,
        board_path: str,
        link_path: Path,
        seed: int = 1,
        corrupt: float = 0.005,
        drop: float = 0.005,
        duplicate: float = 0.005,
        delay: float = 0.005,
        max_delay: float = 0.05,
    ) -> None:
        self.board_path = board_path
        self.link_path = link_path
        self.rng = random.Random(seed)
        self.rates = {"corrupt": corrupt, "drop": drop, "duplicate": duplicate, "delay": delay}
        self.max_delay = max_delay
        self.counts = {"lines": 0, "corrupt": 0, "drop": 0, "duplicate": 0, "delay": 0, "unplug": 0}
        self.lock = threading.Lock()
        self._board = -1
        self._host = -1  # our master side of the host's pseudo-terminal
        self._host_slave = -1
        self._buffers = {"up": bytearray(), "down": bytearray()}  # up: board -> host
        self._later: list[tuple[float, int, str, bytes]] = []
        self._order = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Path:
        self._board = os.open(self.board_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._board)
        self.replug()
        self._thread = threading.Thread(target=self._run, name="fault-proxy", daemon=True)
        self._thread.start()
        return self.link_path

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.unplug(count=False)
        if self._board >= 0:
            os.close(self._board)

    def unplug(self, count: bool = True) -> None:
        with self.lock:
            if count:
                self.counts["unplug"] += 1
            self.link_path.unlink(missing_ok=True)
            for fd in (self._host, self._host_slave):
                if fd >= 0:
                    os.close(fd)
            self._host = self._host_slave = -1
            self._buffers["down"].clear()

    def replug(self) -> None:
        with self.lock:
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._host, self._host_slave = master, slave
            tmp = self.link_path.with_suffix(".new")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(os.ttyname(slave))
            tmp.replace(self.link_path)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                fds = [fd for fd in (self._board, self._host) if fd >= 0]
            wait = 0.005
            if self._later:
                wait = max(0.0, min(wait, self._later[0][0] - time.monotonic()))
            try:
                ready, _, _ = select.select(fds, [], [], wait)
            except (OSError, ValueError):
                continue
            with self.lock:
                for fd in ready:
                    direction = "up" if fd == self._board else "down"
                    try:
                        data = os.read(fd, 4096)
                    except (BlockingIOError, OSError):
                        continue
                    self._take(direction, data)
                now = time.monotonic()
                while self._later and self._later[0][0] <= now:
                    _, _, direction, line = heapq.heappop(self._later)
                    self._write(direction, line)

    def _take(self, direction: str, data: bytes) -> None:
        buffer = self._buffers[direction]
        buffer += data
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                return
            line = bytes(buffer[: end + 1])
            del buffer[: end + 1]
            self._pass(direction, line)

    def _pass(self, direction: str, line: bytes) -> None:
        self.counts["lines"] += 1
        roll = self.rng.random()
        rates = self.rates
        if roll < rates["drop"]:
            self.counts["drop"] += 1
            return
        roll -= rates["drop"]
        if roll < rates["corrupt"]:
            self.counts["corrupt"] += 1
            data = bytearray(line)
            data[self.rng.randrange(len(data) - 1)] = self.rng.randrange(256)
            line = bytes(data)
        elif roll - rates["corrupt"] < rates["duplicate"]:
            self.counts["duplicate"] += 1
            self._write(direction, line)
        elif roll - rates["corrupt"] - rates["duplicate"] < rates["delay"]:
            self.counts["delay"] += 1
            self._order += 1
            due = time.monotonic() + self.rng.uniform(0.001, self.max_delay)
            heapq.heappush(self._later, (due, self._order, direction, line))
            return
        self._write(direction, line)

    def _write(self, direction: str, line: bytes) -> None:
        fd = self._host if direction == "up" else self._board
        if fd < 0:
            return  # unplugged: the line is lost, as on a pulled cable
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(fd, line)
