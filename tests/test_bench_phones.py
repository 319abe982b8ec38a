"""The benches' phones time a message by when its bytes reached the socket, one frame at a time."""

from __future__ import annotations

import importlib.util
import socket
import time
from pathlib import Path
from types import ModuleType

import pytest


def _phones() -> ModuleType:
    """bench/phones.py (the benches are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("bench_phones", Path(__file__).parent.parent / "bench" / "phones.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _frame(payload: bytes, masked: bool = False) -> bytes:
    """A final text frame as a server (unmasked) or a client (masked) sends it."""
    size = len(payload)
    if size < 126:
        head = bytes([0x81, size | (0x80 if masked else 0)])
    elif size < 1 << 16:
        head = bytes([0x81, 126 | (0x80 if masked else 0)]) + size.to_bytes(2, "big")
    else:
        head = bytes([0x81, 127 | (0x80 if masked else 0)]) + size.to_bytes(8, "big")
    if masked:
        key = b"\x01\x02\x03\x04"
        return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return head + payload


@pytest.fixture
def tcp_pair():
    server = socket.create_server(("127.0.0.1", 0))
    phone = socket.create_connection(server.getsockname())
    sender, _ = server.accept()
    phone.setsockopt(socket.SOL_SOCKET, _phones().SO_TIMESTAMPNS, 1)
    yield sender, phone
    for sock in (sender, phone, server):
        sock.close()


def test_framing_ends_every_read_at_the_end_of_a_frame_whatever_its_length_field():
    phones = _phones()
    frames = [_frame(b""), _frame(b"x" * 5), _frame(b"y" * 300), _frame(b"z" * 70_000), _frame(b"m" * 9, masked=True)]
    stream = b"".join(frames)
    framing = phones.Framing()
    ends, position = [], 0
    while position < len(stream):
        take = stream[position:position + min(framing.wanted(), 7)]  # short reads too, as a socket may give
        position += len(take)
        if framing.took(take):
            ends.append(position)
    bounds = [sum(len(f) for f in frames[:i + 1]) for i in range(len(frames))]
    assert ends == bounds


def test_a_message_read_late_is_timed_by_when_it_arrived_never_before_it_was_sent(tcp_pair):
    """The reader wakes 50 ms after the message came: it is timed by its arrival, not by the read. (A message
    followed by another before the read may be timed by the later one: the kernel merges queued segments and keeps
    the later time. A figure errs late then, never early.)"""
    phones = _phones()
    sender, phone = tcp_pair
    for size in (19, 30_000):
        sent = time.perf_counter()
        sender.sendall(_frame(b"v" * size))
        time.sleep(0.05)
        framing = phones.Framing()
        while True:
            data, at = phones.received(phone, framing.wanted())
            if framing.took(data):
                break
        read = time.perf_counter()
        assert sent <= at < sent + 0.02 and read - at > 0.04
