"""Helpers for the table tests: a Table in its own thread, a hand at the simulated board, phones and the display."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from companion.core.actions import Action
from companion.core.registry import get_game
from companion.link.events import KEYS
from companion.link.sim import SimulatedBoard
from companion.play.router import Press
from companion.play.runner import PlayOptions, Table
from companion.store import Store
from display.client import PublicClient
from display.model import DisplayModel

# Fast firmware timings, so a scripted game takes seconds: the same code paths, shorter waits.
LONG_MS = 80
TIMINGS = {
    "Buttons": {"DEBOUNCE_MS": 2, "LONG_MS": LONG_MS, "DOUBLE_MS": 100},
    "Keys": {"DEBOUNCE_MS": 2, "LONG_MS": LONG_MS},
    "TagTracker": {"POLL_MS": 2},
}
STEP_MS = 1  # the simulated firmware's loop period (2 ms on the real board)
WAIT = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def uid_for(index: int) -> str:
    """A 7-byte NTAG213 UID, distinct per card."""
    return f"04{index:012X}"


def enroll_all(db: Path, game_name: str) -> dict[str, str]:
    """Enroll a tag for every physical card of the game; card -> uid."""
    store = Store(db)
    uids = {}
    try:
        for i, card in enumerate(get_game(game_name).cards()):
            uids[card] = uid_for(i)
            store.enroll_tag(uids[card], game_name, card)
    finally:
        store.close()
    return uids


def wait_until(predicate: Callable[[], Any], timeout: float = WAIT, what: str = "the condition") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.002)


class Hand:
    """Presses, holds and taps on a simulated board, as the script asks (Press objects from the router's plan).

    Each press is held until the firmware has seen it and released until it has seen that, so a busy machine
    slows the script down but never loses or merges a press.
    """

    def __init__(self, board: SimulatedBoard, uids: dict[str, str]) -> None:
        self.board = board
        self.uids = uids
        self.presses = 0
        self.last_tag = ""
        board.STEP_MS = STEP_MS

    def perform(self, presses: Sequence[Press]) -> None:
        for press in presses:
            self.one(press)

    def one(self, press: Press) -> None:
        self.presses += 1
        controller = self.board.controller
        if press.source == "seat":
            assert press.seat is not None
            seat = press.seat
            self._push(controller.buttons, seat, lambda down: self.board.set_button(seat, down), press.gesture)
        elif press.source == "key":
            assert press.key is not None
            key = press.key
            self._push(controller.keys, KEYS.index(key), lambda down: self.board.set_key(key, down), press.gesture)
        else:
            assert press.card is not None
            self.tap(press.card)

    def _push(self, buttons: Any, index: int, set_down: Callable[[bool], None], gesture: str) -> None:
        # A double press is a second press soon after a first; the script's first press came just before.
        set_down(True)
        wait_until(lambda: buttons.held(index), 5, "the firmware to see the press")
        if gesture == "long":
            wait_until(lambda: buttons.long_sent[index], 5, "the firmware to see a long press")
        set_down(False)
        wait_until(lambda: not buttons.held(index), 5, "the firmware to see the release")

    def tap(self, card: str) -> None:
        """Lay the card on the reader until the board has reported it, then take it off (a tap of the same card
        next waits until the reader has seen it go; another card may simply take its place)."""
        board = self.board
        tags = board.controller.tags
        uid = self.uids[card]
        if self.last_tag == uid:
            wait_until(lambda: not tags.present, 5, "the reader to see the tag go")
        board.place_tag(uid)
        wait_until(lambda: tags.present and bytes(tags.uid[: tags.uid_len]).hex().upper() == uid, 5,
                   "the reader to see the tag")
        board.remove_tag()
        self.last_tag = uid


class TableThread:
    """`companion play` (in-process, no display child) in a thread of its own, with the simulated board."""

    def __init__(self, db: Path, game: str | None, **options: Any) -> None:
        self.port = free_port()
        self.lines: list[str] = []
        settings: dict[str, Any] = {"display": False, "sim_options": {"timings": TIMINGS}, **options}
        self.options = PlayOptions(db_path=db, game=game, bind="127.0.0.1", port=self.port, **settings)
        self.table: Table | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.code: int | None = None
        self.thread = threading.Thread(target=self._run, name="table", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        async def main() -> int:
            self.loop = asyncio.get_running_loop()
            self.table = Table(self.options, out=self.lines.append)
            return await self.table.run()

        self.code = asyncio.run(main())

    def start(self) -> TableThread:
        self.thread.start()
        wait_until(lambda: (self.table is not None and self.table.ready.is_set()) or self.code is not None,
                   20, "the table to be ready")
        assert self.code is None, "\n".join(self.lines)
        assert self.table is not None and self.table.board is not None and self.table.board.sim is not None
        return self

    @property
    def board(self) -> SimulatedBoard:
        assert self.table is not None and self.table.board is not None
        return self.table.board.sim

    def stop(self) -> None:
        if self.loop is not None and self.table is not None:
            self.loop.call_soon_threadsafe(self.table.stop)
        self.thread.join(20)

    @property
    def live(self) -> Any:
        assert self.table is not None and self.table.live is not None
        return self.table.live

    def plan(self, action: Action) -> list[Press] | None:
        """The board inputs for `action` now, asked of the router in the table's own loop."""
        assert self.loop is not None and self.table is not None and self.table.router is not None
        router = self.table.router

        async def ask() -> list[Press] | None:
            async with self.live.lock:
                return router.plan(action)

        return asyncio.run_coroutine_threadsafe(ask(), self.loop).result(10)


class Phone:
    """A seat's WebSocket: the latest view and every feedback, read in a thread."""

    def __init__(self, url: str, sid: int, token: str) -> None:
        ws_url = url.replace("http://", "ws://") + f"/ws/sessions/{sid}/seat?token={token}"
        self._connection = connect(ws_url, open_timeout=10)
        self.ws = self._connection.__enter__()
        self.view: dict[str, Any] = {}
        self.feedback: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                message = json.loads(raw)
                with self.lock:
                    if message["type"] == "view":
                        self.view = message["view"]
                    elif message["type"] == "feedback":
                        self.feedback.append(message)
                    elif message["type"] == "ping":
                        self.ws.send(json.dumps({"type": "pong"}))
        except Exception:  # the socket closed at the end of the test
            return

    @property
    def state_id(self) -> int:
        return int(self.view.get("state_id", -1))

    def act(self, action: dict[str, Any]) -> None:
        """Send an action against the view held; a phone that acts too fast for the server's limit tries again."""
        state_id = self.state_id
        with self.lock:
            seen = len(self.feedback)
        self.ws.send(json.dumps({"type": "action", "state_id": state_id, "action": action}))
        while True:
            answer = wait_until(lambda n=seen: self._feedback_after(n), what="the phone's feedback")
            if answer.get("code") != "rate_limited":
                assert answer["ok"], answer
                return
            time.sleep(0.2)
            with self.lock:
                seen = len(self.feedback)
            self.ws.send(json.dumps({"type": "action", "state_id": state_id, "action": action}))

    def _feedback_after(self, seen: int) -> dict[str, Any] | None:
        with self.lock:
            return self.feedback[seen] if len(self.feedback) > seen else None

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


class Display:
    """The display's own client and model (what the table screen holds), without a window."""

    def __init__(self, url: str, sid: int, host_token: str) -> None:
        self.model = DisplayModel()
        self.messages: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.client = PublicClient(url, sid, self._listen, host_token=host_token)
        self.client.start()

    def _listen(self, message: dict[str, Any]) -> None:
        with self.lock:
            self.messages.append(message)
            self.model.apply_message(message)

    @property
    def state_id(self) -> int:
        return int((self.model.envelope or {}).get("state_id", -1))

    def feedback(self) -> list[dict[str, Any]]:
        with self.lock:
            return [m for m in self.messages if m.get("type") == "feedback"]

    def close(self) -> None:
        self.client.stop()
