"""What the board tells the rest of the server: one frozen BoardEvent per press, tap, snapshot or connection change."""

from __future__ import annotations

import dataclasses
from typing import Literal

EventKind = Literal["button", "key", "tag", "snapshot", "hello", "connected", "disconnected"]
ButtonAction = Literal["down", "up", "press", "long", "double"]

KEYS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "ok", "back", "undo")


@dataclasses.dataclass(frozen=True)
class BoardEvent:
    """One event. `button` is the seat button (0-6) and `key` a keypad key ("1".."9", "ok", "back", "undo");
    both come with an `action`. A tag event has `uid` (upper-case hex) and `present`. A snapshot lists what is
    held now and the tag on the reader (`uid`, None when none). hello carries the versions; connected and
    disconnected bracket a session with the board (`reason` says why it ended, or why a hello was refused).
    A hello also tells the board's MicroPython version (None for the simulated board), the reader's version
    register (0: no reader answers), the LEDs' current budget in mA and why the board started (`cause`)."""

    kind: EventKind
    board_id: str = ""
    button: int | None = None
    key: str | None = None
    action: ButtonAction | None = None
    uid: str | None = None
    present: bool | None = None
    buttons_held: tuple[int, ...] = ()
    keys_held: tuple[str, ...] = ()
    firmware: str | None = None
    protocol: int | None = None
    reason: str | None = None
    micropython: str | None = None
    reader: int | None = None
    budget_ma: int | None = None
    cause: str | None = None

    def describe(self) -> str:
        """One line for people (the monitor command, logs)."""
        if self.kind == "button":
            return f"seat button {(self.button or 0) + 1} {self.action}"  # 1–7, as a person counts them
        if self.kind == "key":
            return f"key {self.key} {self.action}"
        if self.kind == "tag":
            return f"tag {self.uid} {'placed' if self.present else 'removed'}"
        if self.kind == "snapshot":
            held = ", ".join([f"seat {b + 1}" for b in self.buttons_held] + list(self.keys_held)) or "nothing"
            return f"snapshot: held {held}; tag {self.uid or 'none'}"
        if self.kind == "hello":
            text = f"hello from board {self.board_id}: firmware {self.firmware}, protocol {self.protocol}"
            if self.micropython:
                text += f", MicroPython {self.micropython}"
            if self.reader is not None:
                text += f", reader {self.reader:#04x}" if self.reader else ", NO READER ANSWERS (check its wiring)"
            if self.budget_ma:
                text += f", LEDs within {self.budget_ma} mA"
            if self.cause:
                text += f", started after {self.cause}"
            return text + (f" ({self.reason})" if self.reason else "")
        if self.kind == "connected":
            return f"connected to board {self.board_id}"
        return f"disconnected from board {self.board_id}" + (f": {self.reason}" if self.reason else "")
