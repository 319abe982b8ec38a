"""The benches' phones: WebSockets whose messages are timed by when the phone's network stack had their bytes.

    python bench/phones.py URL [URL ...]

As a process of its own (the play bench): connects one WebSocket per URL (deflate offered, as a browser does),
prints `ready`, then one line per view a phone is sent, `view INDEX AT STATE_ID` (AT on the `time.perf_counter()`
clock, which every process of this machine shares). Lines on stdin, `send INDEX TEXT`, are sent as that phone; end
of stdin closes all. The web bench uses `Phones` in its own process.

At the table each phone is a device of its own: it has a message the moment its bytes reach it, whatever the
table's computer is doing. Here the phones share the machine with the server they measure, and a phone's reader
ran when the scheduler let it: on the development machine's 2 cores a server sending a feedback and then making
views kept the reader waiting 2-3 ms at p90 (traced: the bytes were read after the server had sent every view).
So each message is timed by the kernel's receive timestamp (SO_TIMESTAMPNS) of the read that completed it: the
moment the bytes were there to read, however late the reader ran. Inflating and decoding come after, as on a phone.
"""

from __future__ import annotations

import contextlib
import re
import selectors
import socket
import struct
import sys
import threading
import time
from typing import Any

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

# Linux's value on x86 and ARM (Python's socket module does not name it); the control message has the same number.
SO_TIMESTAMPNS = 35
_STAMP = struct.Struct("qq")  # struct timespec: seconds, nanoseconds (CLOCK_REALTIME)


def received(sock: socket.socket, size: int) -> tuple[bytes, float]:
    """Up to `size` bytes the socket has (b"" at its end) and when the last of them arrived, on the `perf_counter`
    clock: the kernel's timestamp of the data read, else (no timestamp given) now."""
    data, ancillary, _, _ = sock.recvmsg(size, socket.CMSG_SPACE(_STAMP.size))
    now, wall = time.perf_counter(), time.time_ns()
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= _STAMP.size:
            seconds, nanoseconds = _STAMP.unpack_from(payload)
            return data, now - max(0, wall - (seconds * 1_000_000_000 + nanoseconds)) / 1e9
    return data, now


class Framing:
    """Where the server's WebSocket frames end, so that no read goes past one: a read's timestamp is that of the
    last data it took, and a reader running late would otherwise take a feedback together with the view sent
    after it, and time the feedback by the view. (Where the kernel merged the two in its queue it keeps the later
    time whatever the reads: that message's figure errs late, never early.)"""

    def __init__(self) -> None:
        self.head = bytearray()
        self.left = -1  # payload bytes still to read; -1: reading a header

    def wanted(self) -> int:
        """How many bytes the next read may take."""
        if self.left >= 0:
            return max(1, min(self.left, 1 << 20))
        return self._head_size() - len(self.head)

    def _head_size(self) -> int:
        if len(self.head) < 2:
            return 2
        short = self.head[1] & 0x7F
        return 2 + (2 if short == 126 else 8 if short == 127 else 0) + (4 if self.head[1] & 0x80 else 0)

    def took(self, data: bytes) -> bool:
        """Count a read's bytes (as `wanted` allowed); True when they end a frame."""
        if self.left >= 0:
            self.left -= len(data)
        else:
            self.head += data
            if len(self.head) < self._head_size():
                return False
            short = self.head[1] & 0x7F
            extended = self.head[2:4] if short == 126 else self.head[2:10] if short == 127 else b""
            self.left = int.from_bytes(extended, "big") if extended else short
        if self.left > 0:
            return False
        self.head.clear()
        self.left = -1
        return True


def connect(url: str) -> tuple[socket.socket, ClientProtocol, list[Any]]:
    """A phone's WebSocket with its handshake done, the socket left non-blocking; with the frames that came in
    along with the server's answer."""
    uri = parse_uri(url)
    sock = socket.create_connection((uri.host, uri.port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    protocol = ClientProtocol(uri, extensions=[ClientPerMessageDeflateFactory()], max_size=2**22)
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    # The server's answer, and not a byte more: the frames after it are read one by one (`Framing`).
    deadline = time.monotonic() + 10
    while protocol.state is State.CONNECTING:
        ahead = sock.recv(1 << 16, socket.MSG_PEEK)
        if not ahead:
            raise ConnectionError(f"{url}: closed during the handshake")
        end = ahead.find(b"\r\n\r\n")
        if end < 0:
            if time.monotonic() > deadline:
                raise ConnectionError(f"{url}: no answer to the handshake")
            time.sleep(0.001)
            continue
        protocol.receive_data(sock.recv(end + 4))
    if protocol.handshake_exc is not None:
        raise protocol.handshake_exc
    sock.setblocking(False)
    return sock, protocol, protocol.events_received()


class Phones:
    """The phones' ends; `arrived(index, at, text)` hears every text message (from the reading thread)."""

    def __init__(self, urls: list[str], arrived: Any) -> None:
        self.arrived = arrived
        self._lock = threading.Lock()  # a phone's protocol is fed by the reader and sent through by `send`
        self._selector = selectors.DefaultSelector()
        self._ends: list[tuple[socket.socket, ClientProtocol]] = []
        self._framing: list[Framing] = []
        self._closed = False
        early = []
        for index, url in enumerate(urls):
            sock, protocol, events = connect(url)
            self._ends.append((sock, protocol))
            self._framing.append(Framing())
            self._selector.register(sock, selectors.EVENT_READ, index)
            early.append((index, events))
        now = time.perf_counter()
        for index, events in early:
            self._deliver(index, events, now)

    def read_forever(self) -> None:
        """Read until `close` (run it in a thread of its own)."""
        while not self._closed:
            arrived = []
            for key, _ in self._selector.select(0.1):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                framing = self._framing[key.data]
                try:
                    data, at = received(sock, framing.wanted())
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data, at = b"", time.perf_counter()
                framing.took(data)
                arrived.append((key.data, data, at))
            # Only now, every ready socket read and timed, is anything inflated and decoded.
            for index, data, at in arrived:
                sock, protocol = self._ends[index]
                with self._lock:
                    if self._closed:
                        return
                    if data:
                        protocol.receive_data(data)
                    else:
                        protocol.receive_eof()
                        with contextlib.suppress(KeyError, ValueError):
                            self._selector.unregister(sock)
                    events = protocol.events_received()
                    self._flush(index)  # the protocol's own answers (a pong to a ping)
                self._deliver(index, events, at)

    def _deliver(self, index: int, events: list[Any], at: float) -> None:
        for event in events:
            if getattr(event, "opcode", None) is Opcode.TEXT:
                text = bytes(event.data).decode()
                if '"type":"ping"' in text:
                    self.send(index, '{"type":"pong"}')
                self.arrived(index, at, text)

    def _flush(self, index: int) -> None:
        sock, protocol = self._ends[index]
        out = b"".join(protocol.data_to_send())
        if out:
            sock.setblocking(True)  # a phone's few bytes; the reader is not waiting on this socket meanwhile
            try:
                sock.sendall(out)
            except OSError:
                pass
            finally:
                sock.setblocking(False)

    def send(self, index: int, text: str) -> None:
        with self._lock:
            self._ends[index][1].send_text(text.encode())
            self._flush(index)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for index, (sock, protocol) in enumerate(self._ends):
                with contextlib.suppress(Exception):
                    protocol.send_close()
                    self._flush(index)
                sock.close()


STATE_ID = re.compile(r'"state_id":(\d+)')


def view_state(text: str) -> int | None:
    """The state id of a view message, read from its first bytes without decoding it all (the server writes the
    type first and the state id near the start); None for any other message."""
    found = STATE_ID.search(text, 0, 400) if text.startswith('{"type":"view"') else None
    return None if found is None else int(found.group(1))


def main() -> None:
    out_lock = threading.Lock()

    def arrived(index: int, at: float, text: str) -> None:
        state_id = view_state(text)
        if state_id is None:
            return
        line = f"view {index} {at:.7f} {state_id}\n"
        with out_lock:
            sys.stdout.write(line)
            sys.stdout.flush()

    phones = Phones(sys.argv[1:], arrived)
    threading.Thread(target=phones.read_forever, daemon=True, name="phones").start()
    with out_lock:
        sys.stdout.write("ready\n")
        sys.stdout.flush()
    for line in sys.stdin:
        command, _, rest = line.rstrip("\n").partition(" ")
        if command == "send":
            index, _, text = rest.partition(" ")
            phones.send(int(index), text)
    phones.close()


if __name__ == "__main__":
    main()
