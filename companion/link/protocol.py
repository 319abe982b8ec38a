"""The host's end of the serial protocol, without I/O: feed it bytes and the time, take its output and events.

Mirrors the board's link (firmware/tablectl/link.py): sequenced frames are delivered once and in order, and
acknowledged cumulatively; host commands wait in `pending` until acknowledged and are sent again, in order,
after RTO seconds of silence. A session starts with `sync`; the board's hello tells whether it is the same
boot (a cable glitch: both sides resume where they were, nothing lost) or a new one (numbering restarts).
"""

from __future__ import annotations

import collections
import json
from typing import Any

from companion.link import firmware
from companion.link.events import BoardEvent

_frame = firmware.module("frame")
PROTOCOL: int = _frame.PROTOCOL
SEQ_MASK = 0xFFFF


class HostProtocol:
    RTO = 0.25  # seconds without an acknowledgement before commands are sent again
    SYNC_RETRY = 0.5  # seconds between syncs while the board has not answered
    SILENCE = 3.5  # seconds without a frame from a ready board before we sync again

    def __init__(self) -> None:
        self.reader = _frame.Reader()
        self.out = bytearray()
        self.state = "idle"  # idle, syncing, ready, mismatch
        self.nonce = 0
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
        self.last_leds: str | None = None
        self.repeats = 0
        self.retransmits = 0
        self.results: collections.deque[tuple[str, dict[str, Any]]] = collections.deque()
        self.mismatch = ""

    # -- session -----------------------------------------------------------------------------------
    def start(self, now: float) -> None:
        """Begin (or begin again) a session: send a sync until a hello answers it."""
        self.nonce = self.nonce % 1_000_000 + 1
        self.state = "syncing"
        self._sync(now)

    def _sync(self, now: float) -> None:
        payload = json.dumps({"proto": PROTOCOL, "boot": self.boot, "nonce": self.nonce}, separators=(",", ":"))
        self.out += _frame.encode(-1, "sync", payload)
        self.last_sync = now

    @property
    def ready(self) -> bool:
        return self.state == "ready"

    @property
    def bad_frames(self) -> int:
        return self.reader.bad

    # -- commands ----------------------------------------------------------------------------------
    def command(self, kind: str, payload: dict[str, Any], now: float) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        if kind == "leds":
            self.last_leds = text
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
        if proto != PROTOCOL:
            self.state = "mismatch"
            self.mismatch = (
                f"the board speaks protocol {proto} but this companion needs {PROTOCOL}: "
                "update the firmware with `companion firmware deploy`"
            )
            events.append(BoardEvent("hello", board, firmware=self.firmware, protocol=proto, reason=self.mismatch))
            return
        if boot != self.boot:
            # A new boot or a new session: the board starts numbering again; our commands follow its count.
            self.rx_expect = int(payload.get("next", 0)) & SEQ_MASK
            self.tx_base = int(payload.get("rx", 0)) & SEQ_MASK
            if self.last_leds is not None and not any(kind == "leds" for kind, _ in self.pending):
                self.pending.appendleft(("leds", self.last_leds))  # the board came up dark: restore its lights
            self.boot = boot
        self.state = "ready"
        events.append(BoardEvent("hello", board, firmware=self.firmware, protocol=proto))
        events.append(BoardEvent("connected", board))
        self.sent = 0
        self._send_new(now)

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
                self._retransmit(now)
            if now - self.last_seen >= self.SILENCE:
                self.start(now)

    def take_output(self) -> bytes:
        data = bytes(self.out)
        self.out.clear()
        return data
