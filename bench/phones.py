"""Seven phones for the play bench, in a process of their own: each view's arrival noted when its bytes are read.

    python bench/phones.py URL [URL ...]

Connects one WebSocket per URL (deflate offered, as a browser does), prints `ready`, then one line per view a
phone is sent, `view INDEX AT STATE_ID` (AT: `time.perf_counter()` when its bytes were read, a clock every process
of this machine shares). Lines on stdin, `send INDEX TEXT`, are sent as that phone; end of stdin closes all.

At the table each phone is a device of its own, decoding its view while the others decode theirs. Here one
thread reads every socket that has bytes (one `select`), notes the time, and only then inflates and decodes what
it read (websockets' sans-I/O client), so no phone's arrival waits for another phone's decoding; and in a process
of its own no phone waits for the bench's firmware, display client or bookkeeping to let go of an interpreter.
"""

from __future__ import annotations

import contextlib
import re
import selectors
import socket
import sys
import threading
import time
from typing import Any

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Opcode
from websockets.protocol import State
from websockets.uri import parse_uri


def connect(url: str) -> tuple[socket.socket, ClientProtocol, list[Any]]:
    """A phone's WebSocket with its handshake done, the socket left non-blocking; with the frames that came in
    along with the server's answer."""
    uri = parse_uri(url)
    sock = socket.create_connection((uri.host, uri.port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    protocol = ClientProtocol(uri, extensions=[ClientPerMessageDeflateFactory()], max_size=2**22)
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    while protocol.state is State.CONNECTING:
        data = sock.recv(1 << 16)
        if not data:
            raise ConnectionError(f"{url}: closed during the handshake")
        protocol.receive_data(data)
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
        early = []
        for index, url in enumerate(urls):
            sock, protocol, events = connect(url)
            self._ends.append((sock, protocol))
            self._selector.register(sock, selectors.EVENT_READ, index)
            early.append((index, events))
        now = time.perf_counter()
        for index, events in early:
            self._deliver(index, events, now)

    def read_forever(self) -> None:
        while True:
            arrived = []
            for key, _ in self._selector.select():
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(1 << 20)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                arrived.append((key.data, data, time.perf_counter()))
            # Only now, every ready socket read and timed, is anything inflated and decoded.
            for index, data, at in arrived:
                sock, protocol = self._ends[index]
                with self._lock:
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
            for index, (sock, protocol) in enumerate(self._ends):
                with contextlib.suppress(Exception):
                    protocol.send_close()
                    self._flush(index)
                sock.close()


STATE_ID = re.compile(r'"state_id":(\d+)')


def main() -> None:
    out_lock = threading.Lock()

    def arrived(index: int, at: float, text: str) -> None:
        found = STATE_ID.search(text, 0, 400) if text.startswith('{"type":"view"') else None
        if found is None:
            return
        line = f"view {index} {at:.7f} {found.group(1)}\n"
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
