"""The host link to the controller as the server uses it: an async stream of BoardEvents, LED and buzzer commands.

`BoardLink(port=None)` finds the board by USB VID:PID (and serial number, if given) or uses the given port,
opens it exclusively, syncs, and hands events to every `events()` iterator. On unplug it says `disconnected`,
looks for the board again every second, and after the next hello sends `connected` and a snapshot.
`BoardLink.simulated()` does the same against a simulated board in this process (see sim.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncGenerator, Sequence
from typing import Any, Literal

import serial

from companion.link.discovery import find_boards
from companion.link.events import BoardEvent
from companion.link.protocol import HostProtocol

Flash = Literal["accept", "reject"]


def _color(value: str) -> str:
    text = value.lstrip("#").lower()
    if len(text) != 6 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"a colour is six hex digits like ff8800, not {value!r}")
    return text


class BoardLink:
    RESCAN = 1.0  # seconds between looks for an absent board
    TICK = 0.02  # seconds between timer checks (retransmission, sync retries)
    BAUDRATE = 115200  # USB CDC ignores it; a UART bridge would not
    OUT_LIMIT = 65536  # bytes waiting for a board that does not read; beyond it they are dropped (and resent)

    def __init__(self, port: str | None = None, serial_number: str | None = None) -> None:
        self.port = port
        self.serial_number = serial_number
        self.protocol = HostProtocol()
        self.device: str | None = None
        self.sim: Any = None  # the SimulatedBoard when started by `simulated()`
        self._serial: serial.Serial | None = None
        self._queues: list[asyncio.Queue[BoardEvent]] = []
        self._task: asyncio.Task[None] | None = None
        self._lost: asyncio.Event | None = None
        self._connected = asyncio.Event()
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._out = bytearray()  # written to the port as it takes them: a board that does not read never blocks us
        self.last_error = ""

    # -- life --------------------------------------------------------------------------------------
    @classmethod
    def simulated(cls, **board_options: Any) -> BoardLink:
        """A link to a simulated board started now in this process (stopped by `close()`)."""
        from companion.link.sim import SimulatedBoard

        sim = SimulatedBoard(**board_options)
        path = sim.start()
        link = cls(port=path)
        link.sim = sim
        return link

    async def start(self) -> BoardLink:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._supervise(), name="board-link")
        return self

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._drop_port()
        if self.sim is not None:
            self.sim.stop()

    async def __aenter__(self) -> BoardLink:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def board_id(self) -> str:
        return self.protocol.board_id

    async def wait_connected(self, timeout: float | None = None) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    # -- the stream --------------------------------------------------------------------------------
    async def events(self) -> AsyncGenerator[BoardEvent, None]:
        """Every event from now on, in order; each caller gets its own stream (an AsyncIterator; `aclose()` ends it)."""
        queue: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._queues.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._queues.remove(queue)

    def _publish(self, event: BoardEvent) -> None:
        if event.kind == "connected":
            self._connected.set()
        elif event.kind == "disconnected":
            self._connected.clear()
        for queue in self._queues:
            queue.put_nowait(event)

    # -- commands ----------------------------------------------------------------------------------
    async def set_leds(
        self,
        seats: Sequence[str] | None = None,
        strip: str | Sequence[str] | None = None,
        flash: Flash | None = None,
    ) -> None:
        """Seat lamps (one colour per seat from seat 0, `000000` for off), the strip (one colour for all, or
        one per pixel) and an optional accept/reject flash of the strip. Colours are `rrggbb`."""
        payload: dict[str, Any] = {}
        if seats is not None:
            payload["seats"] = [_color(c) for c in seats]
        if strip is not None:
            payload["strip"] = _color(strip) if isinstance(strip, str) else [_color(c) for c in strip]
        if flash is not None:
            if flash not in ("accept", "reject"):
                raise ValueError(f"flash is accept or reject, not {flash!r}")
            payload["flash"] = flash
        self._command("leds", payload)

    async def beep(self, pattern: str | Sequence[tuple[int, int]]) -> None:
        """A named pattern (tap, ok, error, turn, alarm) or notes as (Hz, ms) pairs, Hz 0 for a rest."""
        if isinstance(pattern, str):
            self._command("beep", {"pattern": pattern})
        else:
            self._command("beep", {"notes": [[int(f), int(ms)] for f, ms in pattern]})

    async def request_snapshot(self) -> None:
        self._command("snap", {})

    async def reset_board(self) -> None:
        self._command("reset", {})

    async def write_tag(self, card: str, timeout: float = 3.0) -> bool:
        """Write a card id into the user memory of the tag on the reader; True when it read back right."""
        return bool((await self._ask("tagw", {"card": card}, timeout)).get("ok"))

    async def read_tag(self, timeout: float = 3.0) -> str | None:
        """The card id stored on the tag on the reader, if any."""
        answer = await self._ask("tagr", {}, timeout)
        return str(answer.get("detail")) if answer.get("ok") else None

    async def _ask(self, kind: str, payload: dict[str, Any], timeout: float) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._waiters[kind] = future
        self._command(kind, payload)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiters.pop(kind, None)

    def _command(self, kind: str, payload: dict[str, Any]) -> None:
        self.protocol.command(kind, payload, time.monotonic())
        self._flush()

    # -- the port ----------------------------------------------------------------------------------
    def _find_port(self) -> str | None:
        if self.port is not None:
            return self.port
        boards = find_boards(self.serial_number)
        return boards[0].device if boards else None

    def _open(self, device: str) -> bool:
        try:
            port = serial.Serial(device, self.BAUDRATE, timeout=0, write_timeout=1, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as exc:
            self.last_error = str(exc)
            return False
        self._serial = port
        self.device = device
        return True

    def _drop_port(self) -> None:
        port = self._serial
        self._serial = None
        self._out.clear()
        if port is None:
            return
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(port.fileno())
        with contextlib.suppress(Exception):
            port.close()

    def _readable(self) -> None:
        port = self._serial
        if port is None:
            return
        try:
            data = port.read(4096)
        except (serial.SerialException, OSError) as exc:
            self._lose(f"the port went away ({exc})")
            return
        if data:
            for event in self.protocol.feed(data, time.monotonic()):
                self._publish(event)
            self._answer_waiters()
            self._flush()

    def _answer_waiters(self) -> None:
        while self.protocol.results:
            kind, payload = self.protocol.results.popleft()
            future = self._waiters.get(kind)
            if future is not None and not future.done():
                future.set_result(payload)

    def _flush(self) -> None:
        """Write what the port takes now (its descriptor is non-blocking); the rest waits for the next tick.

        A blocking write to a board that stopped reading would stall the whole server (phones, display)."""
        self._out += self.protocol.take_output()
        if not self._out or self._serial is None:
            return
        try:
            written = os.write(self._serial.fileno(), self._out)
        except BlockingIOError:
            written = 0
        except (serial.SerialException, OSError) as exc:
            self._lose(f"writing failed ({exc})")
            return
        del self._out[:written]
        if len(self._out) > self.OUT_LIMIT:
            self._out.clear()  # sequenced commands are sent again until acknowledged; nothing is lost

    def _lose(self, reason: str) -> None:
        self.last_error = reason
        if self._lost is not None:
            self._lost.set()

    async def _supervise(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing:
            device = self._find_port()
            if device is None or not self._open(device):
                await asyncio.sleep(self.RESCAN)
                continue
            assert self._serial is not None
            self._lost = asyncio.Event()
            loop.add_reader(self._serial.fileno(), self._readable)
            self.protocol.start(time.monotonic())
            self._flush()
            try:
                while not self._lost.is_set():
                    # A plain sleep, not a wait for `_lost` with a timeout: that made a task and a timer 50 times a
                    # second (a tenth of a busy server's time in the play bench). A lost port is seen a tick later.
                    await asyncio.sleep(self.TICK)
                    if self._lost.is_set():
                        break
                    self.protocol.poll(time.monotonic())
                    self._flush()
            finally:
                self._drop_port()
            was_ready = self.protocol.ready or self.connected
            self.protocol.state = "idle"
            if was_ready:
                self._publish(BoardEvent("disconnected", self.protocol.board_id, reason=self.last_error))
            await asyncio.sleep(self.RESCAN)


async def open_board(port: str | None = None, serial_number: str | None = None, simulate: bool = True) -> BoardLink:
    """The link `companion play` uses: the given port, else a plugged-in board, else (if allowed) a simulated one."""
    if port is None and not find_boards(serial_number) and simulate:
        return await BoardLink.simulated().start()
    return await BoardLink(port, serial_number).start()
