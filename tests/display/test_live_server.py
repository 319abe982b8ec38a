"""The display's client against the real web server: the public view, join codes, a host action and feedback."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time

import pytest

from companion.store import Session, Store
from companion.web import app as web
from display.client import PublicClient, compression_for


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    import uvicorn

    from companion.web.settings import Settings

    db = tmp_path / "table.sqlite3"
    session = Session.create(Store(db), "tiny", 2, seed=3, names=["Ada", "Ben"])
    settings = Settings(db_path=db, session_id=session.id, host="127.0.0.1", port=free_port())
    server = uvicorn.Server(uvicorn.Config(web.create_app(settings), host="127.0.0.1", port=settings.port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{settings.port}", session
    server.should_exit = True
    thread.join(10)


def wait_for(messages: queue.Queue, predicate, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            message = messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if predicate(message):
            return message
    raise AssertionError("the expected message did not come")


def test_the_display_follows_the_real_server_and_acts_as_the_host(served):
    base, session = served
    got: queue.Queue = queue.Queue()
    client = PublicClient(base, session.id, got.put, host_token=session.host_token)
    client.start()
    try:
        view = wait_for(got, lambda m: m.get("type") == "view")["view"]
        assert view["game"] == "tiny" and view["state_id"] == 0 and "legal" not in view
        assert client.compressed is False  # a server on this machine: nothing to gain from deflating its views
        codes = wait_for(got, lambda m: m.get("type") == "join_codes")
        assert [c["seat"] for c in codes["codes"]] == [0, 1] and "/join/" in codes["codes"][0]["url"]
        client.request_host_choices()
        choices = wait_for(got, lambda m: m.get("type") == "choices")
        assert choices["seat"] == "host" and choices["legal"] == []  # a digital game: nothing for table or host
        client.send_action({"seat": 1, "action": "play_card", "card": 1}, 0)
        refused = wait_for(got, lambda m: m.get("type") == "feedback")
        assert refused["ok"] is False and refused["text"]
        client.send_action(session.legal_actions(0)[0].to_json(), 0)
        accepted = wait_for(got, lambda m: m.get("type") == "feedback" and m.get("ok"))
        assert accepted["ok"] is True
        assert wait_for(got, lambda m: m.get("type") == "view")["view"]["state_id"] == 1
        client.undo(1)
        assert wait_for(got, lambda m: m.get("type") == "view")["view"]["state_id"] == 2
    finally:
        client.stop()


def test_the_display_compresses_only_what_crosses_the_network():
    assert compression_for("ws://127.0.0.1:8000/ws/sessions/1/public") is None
    assert compression_for("ws://localhost:8000/ws/sessions/1/public") is None
    assert compression_for("ws://[::1]:8000/ws/sessions/1/public") is None
    assert compression_for("ws://192.168.1.20:8000/ws/sessions/1/public") == "deflate"
    assert compression_for("wss://table.local/ws/sessions/1/public") == "deflate"


def test_a_phone_coming_and_going_reaches_the_display_without_a_move(served):
    from websockets.sync.client import connect

    from display.model import DisplayModel

    base, session = served
    got: queue.Queue = queue.Queue()
    client = PublicClient(base, session.id, got.put, host_token=session.host_token)
    model = DisplayModel()

    def until_missing(seats: list[int]) -> None:
        """Feed the model what the client hears until the seats without a phone are `seats`."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                model.apply_message(got.get(timeout=0.1))
            if model.phones is not None and [c.seat for c in model.missing_phones()] == seats:
                return
        raise AssertionError(f"the display still misses {[c.seat for c in model.missing_phones()]}, not {seats}")

    client.start()
    try:
        until_missing([0, 1])
        ben = Store(session.store.path).seats(session.id)[1].token
        with connect(f"{base.replace('http', 'ws')}/ws/sessions/{session.id}/seat?token={ben}") as phone:
            assert phone.recv(timeout=5)  # Ben's view: his phone is on
            until_missing([0])
        until_missing([0, 1])
        assert session.state_id == 0, "no move was needed for the display to learn it"
    finally:
        client.stop()
