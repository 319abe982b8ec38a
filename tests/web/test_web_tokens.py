"""Every endpoint with a missing, a wrong, and another seat's (or the host's) token: refused, and nothing changes."""

from __future__ import annotations

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from web_helpers import SERVER_TOKEN

# (method, path, who may use it); {sid} is the session, the body's or query's token is filled in per case.
SEAT = "seat"
HOST = "host"
SERVER = "server"
ENDPOINTS = [
    ("GET", "/api/sessions/{sid}/view", SEAT),
    ("GET", "/api/sessions/{sid}/hints", SEAT),
    ("POST", "/api/sessions/{sid}/actions", SEAT),
    ("POST", "/api/sessions/{sid}/undo", SEAT),
    ("GET", "/api/sessions/{sid}/join-codes", HOST),
    ("GET", "/api/host/sessions", SERVER),
    ("POST", "/api/host/sessions", SERVER),
    ("GET", "/api/host/sessions/{sid}", HOST),
    ("PATCH", "/api/host/sessions/{sid}/seats/{seat}", HOST),
    ("PUT", "/api/host/sessions/{sid}/seats/{seat}/bot", HOST),
    ("POST", "/api/host/sessions/{sid}/actions", HOST),
    ("POST", "/api/host/sessions/{sid}/undo", HOST),
    ("POST", "/api/host/sessions/{sid}/end", HOST),
    ("GET", "/api/host/sessions/{sid}/tags", HOST),
    ("POST", "/api/host/sessions/{sid}/tags", HOST),
    ("GET", "/api/host/sessions/{sid}/enrolment", HOST),
    ("POST", "/api/host/sessions/{sid}/enrolment", HOST),
    ("GET", "/api/host/sessions/{sid}/history", HOST),
    ("GET", "/api/host/sessions/{sid}/history/{seq}/undo", HOST),
    ("POST", "/api/host/sessions/{sid}/undo-to", HOST),
    ("GET", "/api/host/sessions/{sid}/seats/{seat}/view", HOST),
    ("GET", "/api/host/sessions/{sid}/regions", HOST),
    ("GET", "/api/host/sessions/{sid}/phones", HOST),
    ("GET", "/api/host/sessions/{sid}/network", HOST),
    ("POST", "/api/host/sessions/{sid}/rematch", HOST),
    # The summary is open to all once the game is over; before, only the host may read it.
    ("GET", "/api/sessions/{sid}/summary", HOST),
]
# Open to anyone: the public table, the game list, health, the pages, the display's stream.
PUBLIC = {
    ("GET", "/api/sessions/{sid}/public"), ("GET", "/api/games"), ("GET", "/api/health"), ("GET", "/"),
    ("GET", "/join/{sid}"), ("GET", "/host"), ("GET", "/host/{sid}"), ("WS", "/ws/sessions/{sid}/public"),
    # The shared pictograms: the same pictures for every game's things, secret to nobody.
    ("GET", "/pictograms/{kind}/{name}.svg"), ("GET", "/look/{game}.json"),
}
SOCKETS = {("WS", "/ws/sessions/{sid}/seat")}


def all_routes(routes):
    """(method, path) of every route, looking inside included routers (our routers add no prefix on inclusion)."""
    found = set()
    for route in routes:
        if isinstance(route, APIRoute):
            found |= {(m, route.path) for m in route.methods if m != "HEAD"}
        elif isinstance(route, APIWebSocketRoute):
            found.add(("WS", route.path))
        elif hasattr(route, "original_router"):
            found |= all_routes(route.original_router.routes)
    return found


def test_every_route_is_either_public_or_checked_here(client):
    routes = {r for r in all_routes(client.app.routes) if not r[1].startswith(("/openapi", "/docs", "/redoc"))}
    assert len(routes) > 20
    checked = {(m, p) for m, p, _ in ENDPOINTS} | SOCKETS
    assert routes == checked | PUBLIC


def body_for(method, path, sid, token):
    """A request that would succeed with the right token."""
    if path.endswith("/sessions") and method == "POST":
        return {"token": token, "game": "tiny", "players": 2}
    if path.endswith("/actions"):
        action = {"seat": 0, "action": "play_card", "card": 0}
        if "/host/" in path:
            action = {"seat": "host", "action": "adjust_score", "target": 0, "delta": 1}
        return {"token": token, "state_id": 0, "action": action}
    if path.endswith("/undo"):
        return {"token": token, "state_id": 0}
    if path.endswith("/undo-to"):
        return {"token": token, "state_id": 0, "seq": 1}
    if path.endswith("/bot"):
        return {"token": token, "level": "easy"}
    if "/seats/" in path:
        return {"token": token, "name": "Mallory"}
    if path.endswith("/enrolment"):
        return {"token": token, "do": "start"}
    if path.endswith("/tags"):
        return {"token": token, "uid": "04A1B2C3", "card": "1"}
    return {"token": token}


def call(client, method, path, sid, token):
    url = path.replace("{sid}", str(sid)).replace("{seat}", "0").replace("{seq}", "1")
    if method == "GET":
        params = {"token": token} if token is not None else {}
        return client.get(url, params=params)
    body = body_for(method, path, sid, token)
    if token is None:
        body.pop("token")
    return client.request(method, url, json=body)


def snapshot(client, sid):
    envelope = client.get(f"/api/sessions/{sid}/public").json()
    sessions = client.app.state.hub.store.sessions()
    return envelope["state_id"], envelope["players"], envelope["status"], len(sessions)


@pytest.mark.parametrize(("method", "path", "who"), ENDPOINTS, ids=[f"{m} {p}" for m, p, _ in ENDPOINTS])
@pytest.mark.parametrize("case", ["missing", "wrong", "other"])
def test_a_bad_token_is_refused_and_changes_nothing(client, new_session, method, path, who, case):
    seated = new_session(players=2)
    before = snapshot(client, seated.id)
    if case == "missing":
        token, status, code = None, 401, "no_token"
    elif case == "wrong":
        token, status, code = "A" * len(seated.tokens[0]), 403, "not_allowed"
    else:
        # Someone holding a real token, but not the one this needs.
        token = {SEAT: seated.tokens[1], HOST: seated.tokens[0], SERVER: seated.host}[who]
        status, code = 403, "not_allowed"
    response = call(client, method, path, seated.id, token)
    if case == "other" and who == SEAT:
        if method == "GET":  # the view (or hints) of the token's own seat, never the other one
            assert response.status_code == 200 and response.json()["seat"] == 1
            if path.endswith("/view"):
                assert all(a["seat"] == 1 for a in response.json()["legal"])
            return
        if path.endswith("/undo"):  # seat 1 undoing: refused for having nothing of its own to undo
            assert response.status_code == 403
            assert snapshot(client, seated.id) == before
            return
    assert response.status_code == status, response.text
    assert response.json()["code"] == code and response.json()["ok"] is False
    assert snapshot(client, seated.id) == before


def test_a_token_of_another_session_is_refused(client, new_session):
    first = new_session(players=2)
    second = new_session(players=2)
    response = client.get(f"/api/sessions/{first.id}/view", params={"token": second.tokens[0]})
    assert response.status_code == 403
    response = client.get(f"/api/host/sessions/{first.id}", params={"token": second.host})
    assert response.status_code == 403


def test_the_server_token_is_not_a_host_token(client, new_session):
    seated = new_session(players=2)
    response = client.get(f"/api/host/sessions/{seated.id}", params={"token": SERVER_TOKEN})
    assert response.status_code == 403


@pytest.mark.parametrize("case", ["missing", "wrong", "host", "unknown session"])
def test_the_seat_socket_refuses_a_bad_token_with_a_reason(client, new_session, case):
    seated = new_session(players=2)
    sid = seated.id
    query = {"missing": "", "wrong": "?token=nope", "host": f"?token={seated.host}",
             "unknown session": f"?token={seated.tokens[0]}"}[case]
    if case == "unknown session":
        sid = 999
    expected = {"missing": 4401, "wrong": 4403, "host": 4403, "unknown session": 4404}[case]
    with client.websocket_connect(f"/ws/sessions/{sid}/seat{query}") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["text"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == expected


def test_a_wrong_token_gets_no_view_over_the_socket(client, new_session):
    seated = new_session(players=2)
    with client.websocket_connect(f"/ws/sessions/{seated.id}/seat?token=nope") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)):
            ws.receive_json()
