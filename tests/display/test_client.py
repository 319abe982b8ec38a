"""The public WebSocket client against a small server speaking the contract: views, feedback, pings, reconnects."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time

import pytest
import websockets

from display.client import PublicClient, http_url, public_ws_url


class ContractServer:
    """A stand-in for the web server's public socket, in its own thread."""

    def __init__(self) -> None:
        self.received: queue.Queue[dict] = queue.Queue()
        self.paths: list[str] = []
        self.state_id = 0
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self.connections: list = []
        self._started = threading.Event()
        self._server = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self._started.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        self._server = await websockets.serve(self._handler, "127.0.0.1", self.port or 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _handler(self, ws) -> None:
        self.paths.append(ws.request.path)
        self.connections.append(ws)
        self.state_id += 1
        await ws.send(json.dumps({"type": "view", "view": {"session": 4, "game": "tiny", "state_id": self.state_id}}))
        await ws.send(json.dumps({"type": "ping"}))
        await ws.send(json.dumps({"type": "feedback", "ok": False, "seat": 1, "source": "board",
                                  "text": "it is not your turn", "action": None}))
        try:
            async for raw in ws:
                self.received.put(json.loads(raw))
        except websockets.ConnectionClosed:
            pass

    def start(self) -> None:
        self.thread.start()
        self._started.wait(5)

    def drop_clients(self) -> None:
        async def close_all() -> None:
            for ws in list(self.connections):
                await ws.close()
        asyncio.run_coroutine_threadsafe(close_all(), self.loop).result(5)

    def stop(self) -> None:
        async def shut() -> None:
            self._server.close()
            await self._server.wait_closed()
        asyncio.run_coroutine_threadsafe(shut(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def server():
    s = ContractServer()
    s.start()
    yield s
    s.stop()


def wait_for(messages: queue.Queue, predicate, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            message = messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if predicate(message):
            return message
    raise AssertionError("the expected message did not come")


def test_the_urls_follow_the_contract():
    assert public_ws_url("http://pi.local:8000", 3) == "ws://pi.local:8000/ws/sessions/3/public"
    assert public_ws_url("https://table.example/companion/", 3) == "wss://table.example/companion/ws/sessions/3/public"
    assert http_url("http://h:1", "/api/sessions/3/join-codes", token="x y") == (
        "http://h:1/api/sessions/3/join-codes?token=x+y")


def test_the_client_receives_views_and_feedback_and_answers_pings(server):
    got: queue.Queue = queue.Queue()
    client = PublicClient(f"http://127.0.0.1:{server.port}", 4, got.put)
    client.start()
    try:
        assert wait_for(got, lambda m: m.get("type") == "connection")["state"] == "live"
        assert wait_for(got, lambda m: m.get("type") == "view")["view"]["state_id"] == 1
        feedback = wait_for(got, lambda m: m.get("type") == "feedback")
        assert feedback["ok"] is False and feedback["text"] == "it is not your turn"
        assert server.received.get(timeout=5) == {"type": "pong"}
        assert server.paths == ["/ws/sessions/4/public"]
    finally:
        client.stop()


def test_the_host_acts_over_the_public_socket_with_its_token(server):
    got: queue.Queue = queue.Queue()
    client = PublicClient(f"http://127.0.0.1:{server.port}", 4, got.put, host_token="HOST")
    client.start()
    try:
        wait_for(got, lambda m: m.get("type") == "view")
        assert server.received.get(timeout=5) == {"type": "pong"}
        client.send_action({"seat": 0, "action": "play_card", "card": 3}, 1)
        sent = server.received.get(timeout=5)
        assert sent == {"type": "action", "state_id": 1, "action": {"seat": 0, "action": "play_card", "card": 3},
                        "token": "HOST"}
    finally:
        client.stop()


def test_the_client_reconnects_when_the_server_drops_it(server):
    got: queue.Queue = queue.Queue()
    client = PublicClient(f"http://127.0.0.1:{server.port}", 4, got.put)
    client.start()
    try:
        wait_for(got, lambda m: m.get("type") == "view" and m["view"]["state_id"] == 1)
        server.drop_clients()
        assert wait_for(got, lambda m: m.get("type") == "connection")["state"] == "reconnecting"
        # After the reconnect the server sends the current view again, as on every connect.
        assert wait_for(got, lambda m: m.get("type") == "view")["view"]["state_id"] == 2
        assert client.connects == 2
    finally:
        client.stop()


def test_a_client_without_a_server_keeps_trying_and_stops_cleanly():
    got: queue.Queue = queue.Queue()
    client = PublicClient("http://127.0.0.1:9", 1, got.put)  # the discard port: nothing listens there
    client.start()
    try:
        assert wait_for(got, lambda m: m.get("type") == "connection")["state"] == "reconnecting"
    finally:
        client.stop()
    assert wait_for(got, lambda m: m.get("state") == "offline")
