"""The host's end of the serial protocol, without I/O: feed it bytes and the time, take its output and events.

Mirrors the board's link (firmware/tablectl/link.py): sequenced frames are delivered once and in order, and
acknowledged cumulatively; host commands wait in `pending` until acknowledged and are sent again, in order,
after RTO seconds of silence. A session starts with `sync`; the board's hello tells whether it is the same
boot (a cable glitch: both sides resume where they were, nothing lost) or a new one (numbering restarts).
"""

from __future__ import annotations

import collections
import json
import secrets
from typing import Any

from companion.link import firmware
from companion.link.events import BoardEvent

_frame = firmware.module("frame")
PROTOCOL: int = _frame.PROTOCOL
MAX_FRAME: int = _frame.MAX_FRAME
SEQ_MASK = 0xFFFF
MIN_MICROPYTHON = (1, 23)  # the .mpy files `companion firmware deploy --compile` makes need this


class FrameTooLong(ValueError):
    """A command that cannot fit in one frame the board accepts (and cannot be split)."""


def frame_for(kind: str, payload: dict[str, Any], seq: int = SEQ_MASK) -> bytes:
    """The frame of a command, JSON escaped for the link; FrameTooLong when it exceeds the board's limit.

    Checked with the widest sequence number, so the frame fits whatever number it is sent with."""
    text = _frame.escape(json.dumps(payload, separators=(",", ":")))
    data = _frame.encode(seq, kind, text)
    if len(data) > MAX_FRAME:
        raise FrameTooLong(f"a {kind} frame of {len(data)} bytes exceeds the board's limit of {MAX_FRAME}")
    return data


def split_leds(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """An LED command as frames that fit: whole if it fits, else the seats and the strip apart, a per-pixel
    strip in runs (`at` is where a run starts), the flash with the last part."""
    try:
        frame_for("leds", payload)
        return [payload]
    except FrameTooLong:
        pass
    parts: list[dict[str, Any]] = []
    if "seats" in payload:
        parts.append({"seats": payload["seats"]})
    strip = payload.get("strip")
    if isinstance(strip, str):
        parts.append({"strip": strip})
    elif strip is not None:
        at = 0
        while at < len(strip):
            run = 1
            while at + run < len(strip):
                try:
                    frame_for("leds", {"strip": strip[at : at + run + 1], "at": at})
                except FrameTooLong:
                    break
                run += 1
            parts.append({"strip": strip[at : at + run], "at": at} if at else {"strip": strip[at : at + run]})
            at += run
    if "flash" in payload:
        if parts:
            parts[-1] = {**parts[-1], "flash": payload["flash"]}
        else:
            parts.append({"flash": payload["flash"]})
    for part in parts:
        frame_for("leds", part)  # raises if even a part does not fit
    return parts


def _version(text: str) -> tuple[int, ...]:
    out: list[int] = []
    for part in text.split("."):
        digits = "".join(c for c in part if c.isdigit())
        out.append(int(digits) if digits else 0)
    return tuple(out)


class HostProtocol:
    RTO = 0.25  # seconds without an acknowledgement before commands are sent again
    SYNC_RETRY = 0.5  # seconds between syncs while the board has not answered
    SILENCE = 3.5  # seconds without a frame from a ready board before we sync again
    RESYNC_AFTER = 8  # retransmissions without progress before the session is synced again
    GIVE_UP_AFTER = 5.0  # seconds after that sync before a frame the board still does not take is dropped

    def __init__(self) -> None:
        self.reader = _frame.Reader()
        self.out = bytearray()
        self.state = "idle"  # idle, syncing, ready, mismatch
        # Random per process: a restarted host must never look like the same session repeating its sync.
        self.nonce = secrets.randbelow(1 << 30) + 1
        self.boot = ""
        self.board_id = ""
        self.firmware = ""
        self.rx_expect = 0
        self.tx_base = 0
        self.pending: collections.deque[tuple[str, str]] = collections.deque()  # (kind, payload) unacknowledged
        self.sent = 0  # how many of `pending` went out at least once
        self.last_send = 0.0
        self.last_sync = 0.0
        self.last_seen = 0.0
        self.last_leds: dict[str, Any] | None = None  # the LED state as last asked for (no flash)
        self.repeats = 0
        self.retransmits = 0
        self.tries = 0  # retransmissions since the board last acknowledged something
        self.resynced = False  # the session was synced again for the frame at the head of `pending`
        self.resynced_at = 0.0
        self.given_up: list[str] = []  # kinds of commands dropped as undeliverable
        self.results: collections.deque[tuple[str, dict[str, Any]]] = collections.deque()
        self.mismatch = ""
        self.board_error = ""  # what the board reported just before it restarted itself
        self.info: dict[str, Any] = {}  # the last hello's details: MicroPython, reader, budget, why it started

    # -- session -----------------------------------------------------------------------------------
    def start(self, now: float) -> None:
        """Begin (or begin again) a session: send a sync until a hello answers it."""
        self.nonce = self.nonce % (1 << 30) + 1
        self.state = "syncing"
        self._sync(now)

    def _sync(self, now: float) -> None:
        self.out += frame_for("sync", {"proto": PROTOCOL, "boot": self.boot, "nonce": self.nonce}, -1)
        self.last_sync = now

    @property
    def ready(self) -> bool:
        return self.state == "ready"

    @property
    def bad_frames(self) -> int:
        return self.reader.bad

    # -- commands ----------------------------------------------------------------------------------
    def command(self, kind: str, payload: dict[str, Any], now: float) -> None:
        """Queue a command (split into several frames if it must be, an LED command only); FrameTooLong, and
        nothing queued, when it cannot fit in the board's frames."""
        parts = split_leds(payload) if kind == "leds" else [payload]
        texts = [_frame.escape(json.dumps(part, separators=(",", ":"))) for part in parts]
        if kind != "leds":
            frame_for(kind, payload)
        if kind == "leds":
            state = dict(self.last_leds or {})
            state.update({key: value for key, value in payload.items() if key in ("seats", "strip")})
            self.last_leds = state
        for text in texts:
            self.pending.append((kind, text))
        if self.ready:
            self._send_new(now)

    def _send_new(self, now: float) -> None:
        if self.sent == 0 and self.pending:
            self.last_send = now
        while self.sent < len(self.pending):
            kind, text = self.pending[self.sent]
            self.out += _frame.encode((self.tx_base + self.sent) & SEQ_MASK, kind, text)
            self.sent += 1

    def _retransmit(self, now: float) -> None:
        self.sent = 0
        self.retransmits += 1
        self._send_new(now)

    # -- input -------------------------------------------------------------------------------------
    def feed(self, data: bytes, now: float) -> list[BoardEvent]:
        events: list[BoardEvent] = []
        got_sequenced = False
        reader = self.reader
        for value in data:
            if reader.push(value) and reader.check():
                self.last_seen = now
                if reader.seq == _frame.UNSEQ:
                    self._unsequenced(reader.kind(), reader.payload(), now, events)
                elif self.ready:
                    got_sequenced = True
                    if reader.seq == self.rx_expect:
                        self.rx_expect = (self.rx_expect + 1) & SEQ_MASK
                        self._deliver(reader.kind(), reader.payload(), events)
                    else:
                        self.repeats += 1
        if got_sequenced:
            self.out += _frame.encode(-1, "ack", f'{{"n":{(self.rx_expect - 1) & SEQ_MASK}}}')
        return events

    def _unsequenced(self, kind: str, raw: bytes, now: float, events: list[BoardEvent]) -> None:
        try:
            payload = json.loads(raw)
        except ValueError:
            self.reader.bad += 1
            return
        if not isinstance(payload, dict):
            self.reader.bad += 1
            return
        if kind == "ack":
            self._acked(payload.get("n"), now)
        elif kind == "hello":
            self._hello(payload, now, events)
        elif kind == "hb" and self.ready and payload.get("boot") != self.boot:
            self.start(now)  # the board restarted without our noticing its hello
        elif kind == "hb":
            self.info["reader"] = payload.get("rc")
        elif kind == "err":
            self.board_error = str(payload.get("e", ""))

    def _acked(self, seq: Any, now: float) -> None:
        if not isinstance(seq, int) or not self.pending:
            return
        done = ((seq - self.tx_base) & SEQ_MASK) + 1
        if done > len(self.pending):
            return
        for _ in range(done):
            self.pending.popleft()
        self.tx_base = (self.tx_base + done) & SEQ_MASK
        self.sent = max(0, self.sent - done)
        self.last_send = now
        self.tries = 0
        self.resynced = False

    def _hello(self, payload: dict[str, Any], now: float, events: list[BoardEvent]) -> None:
        board = str(payload.get("board", ""))
        boot = str(payload.get("boot", ""))
        if payload.get("nonce") != self.nonce or self.state != "syncing":
            if self.state in ("ready", "syncing") and boot != self.boot and payload.get("nonce") == 0:
                self.start(now)  # the board restarted: a new session
            return
        proto = payload.get("proto")
        self.board_id = board
        self.firmware = str(payload.get("fw", ""))
        micropython = str(payload.get("mp", ""))
        self.info = {
            "micropython": micropython,
            "reader": payload.get("rc"),
            "budget_ma": payload.get("ma"),
            "cause": str(payload.get("why", "")),
        }
        if proto != PROTOCOL:
            self.state = "mismatch"
            self.mismatch = (
                f"the board speaks protocol {proto} but this companion needs {PROTOCOL}: "
                "update the firmware with `companion firmware deploy`"
            )
        elif micropython and _version(micropython) < MIN_MICROPYTHON:
            # An empty version is the simulated board (the firmware on the host's Python): nothing to flash.
            self.state = "mismatch"
            self.mismatch = (
                f"the board runs MicroPython {micropython}; the firmware needs "
                f"{'.'.join(map(str, MIN_MICROPYTHON))} or later: flash a newer MicroPython, "
                "then `companion firmware deploy`"
            )
        if self.state == "mismatch":
            events.append(BoardEvent("hello", board, firmware=self.firmware, protocol=proto, reason=self.mismatch,
                                     **self._hello_details()))
            return
        if boot != self.boot:
            # A new boot or a new session: the board starts numbering again; our commands follow its count.
            self.rx_expect = int(payload.get("next", 0)) & SEQ_MASK
            self.tx_base = int(payload.get("rx", 0)) & SEQ_MASK
            if self.boot:
                # The board restarted: a reset still waiting for its acknowledgement has happened (or is moot);
                # sending it again would restart the fresh board a second time.
                self.pending = collections.deque(item for item in self.pending if item[0] != "reset")
            if self.last_leds is not None and not any(kind == "leds" for kind, _ in self.pending):
                # The board came up dark: restore its lights.
                for part in reversed(split_leds(self.last_leds)):
                    self.pending.appendleft(("leds", _frame.escape(json.dumps(part, separators=(",", ":")))))
            self.boot = boot
        else:
            # The same boot: whatever the board took while our acknowledgements were lost is done.
            rx = payload.get("rx")
            if isinstance(rx, int):
                done = (rx - self.tx_base) & SEQ_MASK
                if 0 < done <= len(self.pending):
                    for _ in range(done):
                        self.pending.popleft()
                    self.tx_base = rx & SEQ_MASK
        self.state = "ready"
        self.tries = 0
        events.append(BoardEvent("hello", board, firmware=self.firmware, protocol=proto, **self._hello_details()))
        events.append(BoardEvent("connected", board))
        self.sent = 0
        self._send_new(now)

    def _hello_details(self) -> dict[str, Any]:
        info = self.info
        reader = info.get("reader")
        cause = info.get("cause") or None
        if cause is not None and cause.startswith("error"):
            name = cause.partition(":")[2] or self.board_error
            cause = f"error ({name})" if name else "error"
        return {
            "micropython": info.get("micropython") or None,
            "reader": reader if isinstance(reader, int) else None,
            "budget_ma": info.get("budget_ma") if isinstance(info.get("budget_ma"), int) else None,
            "cause": cause,
        }

    def _deliver(self, kind: str, raw: bytes, events: list[BoardEvent]) -> None:
        try:
            payload = json.loads(raw)
        except ValueError:
            self.reader.bad += 1
            return
        board = self.board_id
        if kind == "btn":
            events.append(BoardEvent("button", board, button=int(payload["b"]), action=payload["a"]))
        elif kind == "key":
            events.append(BoardEvent("key", board, key=str(payload["k"]), action=payload["a"]))
        elif kind == "tag":
            events.append(BoardEvent("tag", board, uid=str(payload["uid"]), present=bool(payload["on"])))
        elif kind == "snap":
            uid = payload.get("uid")
            events.append(
                BoardEvent(
                    "snapshot",
                    board,
                    uid=uid,
                    present=uid is not None,
                    buttons_held=tuple(int(b) for b in payload.get("b", ())),
                    keys_held=tuple(str(k) for k in payload.get("k", ())),
                )
            )
        else:
            self.results.append((kind, payload))

    # -- time --------------------------------------------------------------------------------------
    def poll(self, now: float) -> None:
        if self.state == "syncing" and now - self.last_sync >= self.SYNC_RETRY:
            self._sync(now)
        elif self.ready:
            if self.pending and now - self.last_send >= self.RTO:
                if self.tries < self.RESYNC_AFTER or (self.resynced and now - self.resynced_at < self.GIVE_UP_AFTER):
                    self.tries += 1
                    self._retransmit(now)
                elif not self.resynced:
                    # No progress for a while: sync again rather than resend forever; the hello tells what the
                    # board took, so the queue moves on.
                    self.resynced = True
                    self.resynced_at = now
                    self.tries = 0
                    self.start(now)
                    return
                else:
                    # Even a fresh session does not take this frame: drop it, so what follows is not held up.
                    kind, _ = self.pending.popleft()
                    self.given_up.append(kind)
                    self.resynced = False
                    self.tries = 0
                    self._retransmit(now)
            if now - self.last_seen >= self.SILENCE:
                self.start(now)

    def take_output(self) -> bytes:
        data = bytes(self.out)
        self.out.clear()
        return data
