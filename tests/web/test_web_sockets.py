"""The live sockets: a full view on every connect, feedback after every try, fan-out to all, heartbeat."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import SERVER_TOKEN

from companion.core.public import REFUSED
from companion.web import Settings, create_app


def seat_socket(client, seated, seat):
    return client.websocket_connect(f"/ws/sessions/{seated.id}/seat?token={seated.tokens[seat]}")


def public_socket(client, seated):
    return client.websocket_connect(f"/ws/sessions/{seated.id}/public")


_held: dict[int, list[dict]] = {}


@pytest.fixture(autouse=True)
def _fresh_inboxes():
    _held.clear()
    yield
    _held.clear()


def until(ws, kind):
    """The next message of a kind; others that come first are kept for later calls (pings are dropped)."""
    held = _held.setdefault(id(ws), [])
    for i, message in enumerate(held):
        if message["type"] == kind:
            return held.pop(i)
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        if message["type"] != "ping":
            held.append(message)
    raise AssertionError(f"no {kind} message")


def next_besides_hints(ws):
    """The next message other than a seat's hints (they follow its view whenever they are ready)."""
    while True:
        message = ws.receive_json()
        if message["type"] != "hints":
            return message


def test_a_seat_gets_its_private_view_on_connect(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 1) as ws:
        message = ws.receive_json()
    assert message["type"] == "view"
    envelope = message["view"]
    assert envelope["seat"] == 1 and "hand" in envelope["view"] and envelope["legal"] == []


def test_the_public_stream_gets_the_public_view_on_connect(client, new_session):
    seated = new_session()
    with public_socket(client, seated) as ws:
        envelope = ws.receive_json()["view"]
    assert envelope["seat"] is None and "hand" not in envelope["view"] and "legal" not in envelope


def test_an_action_is_answered_and_fanned_out_to_every_seat_and_display(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 0) as s0, seat_socket(client, seated, 1) as s1, \
            seat_socket(client, seated, 2) as s2, public_socket(client, seated) as pub:
        first = s0.receive_json()["view"]
        for ws in (s1, s2, pub):
            ws.receive_json()
        s0.send_json({"type": "action", "state_id": first["state_id"], "action": first["legal"][0]})
        feedback = next_besides_hints(s0)  # how it went comes before what it changed
        assert feedback["type"] == "feedback"
        assert feedback["ok"] is True and feedback["seat"] == 0 and feedback["source"] == "phone"
        assert feedback["action"] == first["legal"][0]
        for seat, ws in enumerate((s0, s1, s2)):
            view = until(ws, "view")["view"]
            assert view["state_id"] == 1 and view["seat"] == seat
        public_feedback = until(pub, "feedback")
        assert public_feedback["ok"] is True and public_feedback["seat"] == 0
        # Seat 0 drew a card: the public line says what was played, never the card drawn.
        assert public_feedback["action"] == {"seat": 0, "action": "play_card"}
        assert "drew" not in public_feedback["text"]
        assert until(pub, "view")["view"]["state_id"] == 1


def test_a_refused_action_gets_the_reason_on_that_phone_only(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 1) as s1, public_socket(client, seated) as pub:
        envelope = s1.receive_json()["view"]
        pub.receive_json()
        card = envelope["view"]["hand"][0]
        s1.send_json({"type": "action", "state_id": 0, "action": {"seat": 1, "action": "play_card", "card": card}})
        feedback = until(s1, "feedback")
        assert feedback["ok"] is False and feedback["code"] == "not_your_turn" and "turn" in feedback["text"]
        public_feedback = until(pub, "feedback")
        assert public_feedback["ok"] is False and public_feedback["text"] == REFUSED
        assert public_feedback["action"] == {"seat": 1, "action": "play_card"}  # which card it was stays private
    assert client.get(f"/api/sessions/{seated.id}/public").json()["state_id"] == 0


def test_a_stale_action_over_the_socket_is_refused(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 0) as s0:
        envelope = s0.receive_json()["view"]
        s0.send_json({"type": "action", "state_id": 5, "action": envelope["legal"][0]})
        feedback = until(s0, "feedback")
    assert feedback["ok"] is False and feedback["code"] == "stale"


@pytest.mark.parametrize(("message", "reason"), [
    ("{not json", "JSON"),
    ("[1, 2]", "type"),
    ('{"type": "dance"}', "unknown message type"),
    ('{"type": "action", "action": {"action": "play_card", "card": 1}}', "state_id"),
    ('{"type": "action", "state_id": true, "action": {}}', "state_id"),
    ('{"type": "action", "state_id": 0, "action": "play"}', "action"),
    ('{"type": "action", "state_id": 0, "action": {"action": "fly"}}', "unknown action"),
    ('{"type": "action", "state_id": 0, "action": {"action": "play_card", "card": 1, "x": 1}}', "unexpected"),
])
def test_malformed_messages_get_a_reason_and_the_socket_stays_open(client, new_session, message, reason):
    seated = new_session()
    with seat_socket(client, seated, 0) as s0:
        s0.receive_json()
        s0.send_text(message)
        feedback = until(s0, "feedback")
        assert feedback["ok"] is False and feedback["code"] == "malformed"
        assert reason.lower() in feedback["text"].lower()
        s0.send_json({"type": "refresh"})
        assert until(s0, "view")["view"]["state_id"] == 0


def test_an_oversized_message_is_refused(db_path, new_session):
    seated = new_session()
    with TestClient(create_app(Settings(db_path=db_path, max_message_bytes=200))) as client, \
            seat_socket(client, seated, 0) as s0:
        s0.receive_json()
        s0.send_text('{"type": "refresh", "pad": "' + "x" * 500 + '"}')
        feedback = until(s0, "feedback")
    assert feedback["ok"] is False and "at most 200 bytes" in feedback["text"]


def test_a_seat_undoes_over_the_socket(client, new_session):
    seated = new_session(mode="physical")
    with seat_socket(client, seated, 0) as s0:
        envelope = s0.receive_json()["view"]
        s0.send_json({"type": "action", "state_id": 0, "action": envelope["legal"][0]})
        assert until(s0, "feedback")["ok"] is True
        assert until(s0, "view")["view"]["state_id"] == 1
        s0.send_json({"type": "undo", "state_id": 1})
        feedback = until(s0, "feedback")
        assert feedback["ok"] is True
        again = until(s0, "view")["view"]
    assert again["state_id"] == 2 and again["view"]["hand"] == envelope["view"]["hand"]


def test_a_reconnecting_phone_gets_the_latest_full_view(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 0) as s0:
        envelope = s0.receive_json()["view"]
        s0.send_json({"type": "action", "state_id": 0, "action": envelope["legal"][0]})
        until(s0, "feedback")
    with seat_socket(client, seated, 0) as s0:
        assert s0.receive_json()["view"]["state_id"] == 1


def test_the_public_stream_is_read_only_without_a_token(client, new_session):
    seated = new_session()
    with public_socket(client, seated) as pub:
        pub.receive_json()
        pub.send_json({"type": "action", "state_id": 0,
                       "action": {"seat": "host", "action": "adjust_score", "target": 0, "delta": 9}})
        feedback = until(pub, "feedback")
        assert feedback["ok"] is False and "token" in feedback["text"]
        pub.send_json({"type": "action", "state_id": 0, "token": "nope",
                       "action": {"seat": "host", "action": "adjust_score", "target": 0, "delta": 9}})
        assert until(pub, "feedback")["code"] == "not_allowed"
    assert client.get(f"/api/sessions/{seated.id}/public").json()["view"]["scores"] == [0, 0, 0]


def test_the_display_acts_as_the_host_with_the_host_token(client, new_session):
    seated = new_session()
    with public_socket(client, seated) as pub:
        pub.receive_json()
        pub.send_json({"type": "action", "state_id": 0, "token": seated.host,
                       "action": {"seat": "host", "action": "adjust_score", "target": 1, "delta": 4}})
        feedback = until(pub, "feedback")
        assert feedback["ok"] is True and feedback["source"] == "display"
        assert feedback["action"]["delta"] == 4
        assert until(pub, "view")["view"]["view"]["scores"] == [0, 4, 0]


def test_http_actions_reach_the_sockets_too(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 1) as s1:
        s1.receive_json()
        legal = client.get(f"/api/sessions/{seated.id}/view", params={"token": seated.tokens[0]}).json()["legal"]
        client.post(f"/api/sessions/{seated.id}/actions",
                    json={"token": seated.tokens[0], "state_id": 0, "action": legal[0]})
        view = until(s1, "view")["view"]
    assert view["state_id"] == 1 and view["current_seats"] == [1] and view["legal"]


def test_a_renamed_seat_reaches_the_phones(client, new_session):
    seated = new_session()
    with seat_socket(client, seated, 0) as s0:
        s0.receive_json()
        client.patch(f"/api/host/sessions/{seated.id}/seats/2", json={"token": seated.host, "name": "Zed"})
        view = until(s0, "view")["view"]
    assert view["players"][2]["name"] == "Zed"


def test_the_server_pings_and_drops_a_silent_client(db_path, new_session):
    seated = new_session()
    settings = Settings(db_path=db_path, server_token=SERVER_TOKEN, heartbeat_seconds=0.05, idle_timeout_seconds=0.3)
    with TestClient(create_app(settings)) as client, seat_socket(client, seated, 0) as s0:
        assert s0.receive_json()["type"] == "view"
        assert next_besides_hints(s0) == {"type": "ping"}
        s0.send_json({"type": "pong"})
        with pytest.raises(WebSocketDisconnect):
            for _ in range(100):
                s0.receive_json()


def test_a_client_ping_is_answered(client, new_session):
    seated = new_session()
    with public_socket(client, seated) as pub:
        pub.receive_json()
        pub.send_json({"type": "ping"})
        assert until(pub, "pong") == {"type": "pong"}


def test_a_flood_of_messages_is_refused(db_path, new_session):
    seated = new_session()
    settings = Settings(db_path=db_path, actions_per_second=0.001, action_burst=2)
    with TestClient(create_app(settings)) as client, seat_socket(client, seated, 0) as s0:
        s0.receive_json()
        for _ in range(6):
            s0.send_json({"type": "refresh"})
        codes = []
        while len(codes) < 2:
            message = s0.receive_json()
            if message["type"] == "feedback":
                codes.append(message["code"])
    assert codes == ["rate_limited", "rate_limited"]


def test_feedback_names_the_player_in_whole_sentences(client, new_session):
    seated = new_session(names=["Ann", "Ben", "Cy"], mode="physical")
    with seat_socket(client, seated, 0) as s0, public_socket(client, seated) as pub:
        first = s0.receive_json()["view"]
        pub.receive_json()
        s0.send_json({"type": "action", "state_id": first["state_id"], "action": first["legal"][0]})
        mine, public = until(s0, "feedback"), until(pub, "feedback")
        for feedback in (mine, public):
            assert feedback["text"].startswith("Ann ") and "0" not in feedback["text"].split()
            assert feedback["lines"] and all(line["params"].get("player") == 0 for line in feedback["lines"])
        until(s0, "view")
        s0.send_json({"type": "undo", "state_id": 1})
        undone = until(s0, "feedback")
        assert undone["text"] == "Ann took back their last move"
        assert (undone["template"], undone["params"]) == ("{player} took back their last move", {"player": 0})


def test_a_phone_coming_and_going_is_pushed_to_the_public_stream_without_naming_anyone(client, new_session):
    seated = new_session()
    with public_socket(client, seated) as pub:
        pub.receive_json()
        with seat_socket(client, seated, 1) as s1:
            s1.receive_json()
            came = until(pub, "phones")
        went = until(pub, "phones")
    assert came == went == {"type": "phones"}  # only that it changed: who is on is the host's to ask
