"""Fuzzing the REST and WebSocket edges: whatever arrives, the answer is a refusal in the documented shape, the game
is unchanged, and no other client's socket closes.

The inputs are what a player with a phone and the Wi-Fi password could send: lone surrogates, control characters,
bidi overrides, deep nesting, numbers far beyond 64 bits, unknown fields, bytes that are not UTF-8, session ids
past SQLite's integers, other seats' moves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import Session, Store
from companion.web import Settings, create_app

HOSTILE_TEXT = ["\ud800", "\udfff", "a\x00b", "\x1b[2J", "\u202eevil", "x" * 3000, "", "seat", "host", "table",
                "<script>alert(1)</script>"]
HUGE = [2**53, 2**63, -(2**63) - 1, 10**400, 10**18, -(10**18)]

texts = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=20))
numbers = st.one_of(st.sampled_from(HUGE), st.integers(min_value=-5, max_value=200), st.floats(allow_nan=False))
leaves = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(texts, inner, max_size=4)), max_leaves=12)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def encode(value: Any) -> bytes:
    """JSON as a client might send it: lone surrogates escaped (they cannot be UTF-8)."""
    return json.dumps(value, ensure_ascii=True).encode()


class Table:
    """One served game with a phone and a display connected, and the secrets of its links."""

    def __init__(self, client: TestClient, sid: int, host: str, tokens: list[str]) -> None:
        self.client = client
        self.sid = sid
        self.host = host
        self.tokens = tokens

    def state_id(self) -> int:
        return self.client.get(f"/api/sessions/{self.sid}/public").json()["state_id"]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    store = Store(path)
    session = Session.create(store, "bohnanza", 3, seed=3, names=["Ann", "Bo", "Cy"])
    tokens = [r.token for r in store.seats(session.id)]
    sid, host = session.id, session.host_token
    store.close()
    app_settings = Settings(db_path=path, server_token="fuzz-server-token", actions_per_second=1e6, action_burst=10**6,
                            heartbeat_seconds=60, idle_timeout_seconds=600)
    with TestClient(create_app(app_settings)) as client:
        yield Table(client, sid, host, tokens)


def assert_refusal(response: Any) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    body = response.json()
    assert body["ok"] is False and isinstance(body["code"], str) and isinstance(body["error"], str), body
    assert "detail" not in body
    assert response.headers.get("x-content-type-options") == "nosniff"


def assert_alive(ws: Any) -> None:
    """The socket still answers (it was not closed by someone else's input)."""
    ws.send_text('{"type":"ping"}')
    for _ in range(50):
        if ws.receive_json()["type"] == "pong":
            return
    raise AssertionError("no pong")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=values, extra=st.dictionaries(texts, values, max_size=2), state_id=values, token_kind=st.integers(0, 3))
def test_any_action_body_over_rest_is_refused_in_shape_and_changes_nothing(table: Table, action: Any, extra: Any,
                                                                          state_id: Any, token_kind: int) -> None:
    before = table.state_id()
    token = [table.tokens[1], table.host, "\ud800", "x" * 300][token_kind]
    body: dict[str, Any] = {"token": token, "state_id": state_id, "action": action}
    if isinstance(action, dict):
        body["action"] = {**action, "seat": 2}  # never the token's own seat (1), and the host's moves are refused
    body.update({k: v for k, v in extra.items() if k not in body})
    response = table.client.post(f"/api/sessions/{table.sid}/actions", content=encode(body),
                                 headers={"content-type": "application/json"})
    if response.status_code == 200:  # the host may act for seat 2 when the junk happens to be its move
        pytest.fail(f"accepted: {body}")
    assert_refusal(response)
    assert table.state_id() == before


@pytest.mark.parametrize("raw", [
    b"\xff\xfe{", deep(7000).encode(), b'{"token": "t", "state_id": ' + b"9" * 5000 + b', "action": {}}',
    b'{"token": "t", "state_id": 1e999, "action": {}}', b'{"token": "t", "state_id": NaN, "action": {}}',
    b'{"token": "t", "state_id": 0, "action": {}, "surprise": 1}', b"", b"null", b'"\\ud800"',
])
def test_malformed_rest_bodies_get_the_refusal_shape(table: Table, raw: bytes) -> None:
    before = table.state_id()
    for path in (f"/api/sessions/{table.sid}/actions", f"/api/host/sessions/{table.sid}/actions",
                 f"/api/sessions/{table.sid}/undo", "/api/host/sessions"):
        assert_refusal(table.client.post(path, content=raw, headers={"content-type": "application/json"}))
    assert table.state_id() == before


@pytest.mark.parametrize("sid", ["0", "-1", str(2**63), str(2**64 + 5), "9" * 400, "abc", "1e3"])
def test_session_ids_beyond_any_stored_get_the_refusal_shape(table: Table, sid: str) -> None:
    assert_refusal(table.client.get(f"/api/sessions/{sid}/public"))
    assert_refusal(table.client.get(f"/api/sessions/{sid}/view", params={"token": table.tokens[0]}))
    with table.client.websocket_connect(f"/ws/sessions/{sid}/public") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["code"] == "unknown_session"


def test_a_body_too_large_is_refused_with_the_security_headers(table: Table) -> None:
    response = table.client.post(f"/api/sessions/{table.sid}/actions", content=b"[" * 70_000,
                                 headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "content-security-policy" in response.headers and response.headers["x-frame-options"] == "DENY"


def test_names_are_bounded_and_plain_over_the_api(table: Table) -> None:
    before = table.state_id()
    for name in ["x" * 41, "", "   ", "a\nb", "\x1b[31mred", "\ud800"]:
        response = table.client.patch(f"/api/host/sessions/{table.sid}/seats/0",
                                      content=encode({"token": table.host, "name": name}),
                                      headers={"content-type": "application/json"})
        assert_refusal(response)
        created = table.client.post("/api/host/sessions", content=encode(
            {"token": "fuzz-server-token", "game": "bohnanza", "players": 3, "names": [name]}),
            headers={"content-type": "application/json"})
        assert_refusal(created)
    absurd = table.client.post("/api/host/sessions", json={"token": "fuzz-server-token", "game": "bohnanza",
                                                           "players": 3, "options": {"trade_seconds": 10**9}})
    assert_refusal(absurd)
    assert "trade_seconds" in absurd.json()["error"]
    assert table.state_id() == before


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=values, kind=st.sampled_from(["action", "undo", "board", "dance", None]), raw=st.booleans())
def test_any_socket_message_is_refused_to_its_sender_only(table: Table, message: Any, kind: Any, raw: bool) -> None:
    """Seat 0's phone sends junk (often another seat's move); the display and seat 1's phone stay connected and
    hear nothing of it; seat 0 hears a refusal in the documented shape."""
    before = table.state_id()
    client = table.client
    with client.websocket_connect(f"/ws/sessions/{table.sid}/public") as display, \
            client.websocket_connect(f"/ws/sessions/{table.sid}/seat?token={table.tokens[1]}") as other, \
            client.websocket_connect(f"/ws/sessions/{table.sid}/seat?token={table.tokens[0]}") as phone:
        for ws in (display, other, phone):
            assert ws.receive_json()["type"] == "view"
        if raw:
            text = json.dumps(message, ensure_ascii=True)
        else:
            data = message if isinstance(message, dict) else {"action": message}
            data = {**data, "type": kind, "state_id": data.get("state_id", 0)}
            if kind == "action" and isinstance(data.get("action"), dict):
                data["action"] = {**data["action"], "seat": 1}
            text = json.dumps(data, ensure_ascii=True)
        phone.send_text(text)
        answer = next(m for m in iter(phone.receive_json, None) if m["type"] == "feedback")
        assert answer["ok"] is False and isinstance(answer["code"], str) and isinstance(answer["text"], str)
        assert "template" in answer and "params" in answer
        assert_alive(display)
        assert_alive(other)
        assert_alive(phone)
        for ws in (display, other):  # whatever the display heard of it is the projection, never the reason
            ws.send_text('{"type":"refresh"}')
            while (heard := ws.receive_json())["type"] != "view":
                assert heard["type"] != "feedback" or ws is display, "another phone heard seat 0's try"
                if heard["type"] == "feedback":
                    assert heard["text"] in ("a move was refused",) and heard["params"] == {}
    assert table.state_id() == before


def test_a_deeply_nested_socket_message_gets_feedback_and_the_socket_stays(table: Table) -> None:
    with table.client.websocket_connect(f"/ws/sessions/{table.sid}/seat?token={table.tokens[0]}") as phone:
        phone.receive_json()
        for text in (deep(7000), '{"type":"action","state_id":0,"action":' + deep(50) + "}",
                     '{"type":"action","state_id":' + "9" * 5000 + ',"action":{}}', "\ud800"):
            phone.send_text(text)
            answer = next(m for m in iter(phone.receive_json, None) if m["type"] == "feedback")
            assert answer["ok"] is False and answer["code"] == "malformed"
        phone.send_bytes(b"\xff\xfe")
        answer = next(m for m in iter(phone.receive_json, None) if m["type"] == "feedback")
        assert answer["ok"] is False and answer["code"] == "malformed"
        assert_alive(phone)


def test_public_sockets_are_capped_per_session(table: Table) -> None:
    client = table.client
    limit = client.app.state.settings.max_public_sockets  # type: ignore[attr-defined]
    opened = [client.websocket_connect(f"/ws/sessions/{table.sid}/public") for _ in range(limit)]
    sockets = [ws.__enter__() for ws in opened]
    try:
        for ws in sockets:
            assert ws.receive_json()["type"] == "view"
        with client.websocket_connect(f"/ws/sessions/{table.sid}/public") as extra:
            refused = extra.receive_json()
            assert refused["type"] == "error" and refused["code"] == "too_many"
        assert_alive(sockets[0])
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)
