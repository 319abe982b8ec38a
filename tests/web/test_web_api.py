"""The JSON API: views, actions against a state id, undo, host operations, limits, and refusals that change nothing."""

from __future__ import annotations

import json

import pytest
from web_helpers import SERVER_TOKEN

from companion.core.registry import get_game
from companion.core.words import Words
from companion.web import Settings, create_app


def seat_view(client, sid, token):
    response = client.get(f"/api/sessions/{sid}/view", params={"token": token})
    assert response.status_code == 200, response.text
    return response.json()


def public(client, sid):
    return client.get(f"/api/sessions/{sid}/public").json()


def act(client, sid, token, state_id, action):
    return client.post(f"/api/sessions/{sid}/actions", json={"token": token, "state_id": state_id, "action": action})


def test_the_public_view_has_the_envelope_and_no_hand(client, new_session):
    seated = new_session(players=3, names=["Ann", "Bo", "Cy"])
    envelope = public(client, seated.id)
    assert envelope["seat"] is None and envelope["state_id"] == 0 and envelope["game"] == "tiny"
    assert [p["name"] for p in envelope["players"]] == ["Ann", "Bo", "Cy"]
    assert "hand" not in envelope["view"] and "legal" not in envelope and "hints" not in envelope


def test_a_seat_token_gets_that_seats_hand_and_legal_actions(client, new_session):
    seated = new_session(players=3)
    for seat, token in enumerate(seated.tokens):
        envelope = seat_view(client, seated.id, token)
        assert envelope["seat"] == seat
        assert len(envelope["view"]["hand"]) == envelope["view"]["hand_sizes"][seat]
        assert all(a["seat"] == seat for a in envelope["legal"])
        assert bool(envelope["legal"]) == (seat in envelope["current_seats"])


def test_a_seats_rest_view_does_not_wait_for_hints_which_the_hints_endpoint_gives(client, new_session):
    seated = new_session("shifting_stones", 3, seed=2)
    view = client.get(f"/api/sessions/{seated.id}/view", params={"token": seated.tokens[0]}).json()
    assert "legal" in view and ("hints" in view or view.get("hints_pending") is True)
    got = client.get(f"/api/sessions/{seated.id}/hints", params={"token": seated.tokens[0]})
    assert got.status_code == 200
    body = got.json()
    assert body["seat"] == 0 and body["state_id"] == view["state_id"] and "best_turn" in body["hints"]
    assert [c["card"] for c in body["hints"]["cards"]] == [c["card"] for c in view["view"]["hand"]]
    again = client.get(f"/api/sessions/{seated.id}/view", params={"token": seated.tokens[0]}).json()
    assert again["hints"] == body["hints"] and "hints_pending" not in again
    refused = client.get(f"/api/sessions/{seated.id}/hints", params={"token": seated.host})
    assert refused.status_code == 403


def test_an_accepted_action_bumps_the_state_id(client, new_session):
    seated = new_session()
    envelope = seat_view(client, seated.id, seated.tokens[0])
    response = act(client, seated.id, seated.tokens[0], 0, envelope["legal"][0])
    assert response.status_code == 200 and response.json() == {"ok": True, "state_id": 1}
    assert public(client, seated.id)["state_id"] == 1


def test_a_phone_may_leave_out_its_own_seat(client, new_session):
    seated = new_session()
    action = dict(seat_view(client, seated.id, seated.tokens[0])["legal"][0])
    del action["seat"]
    assert act(client, seated.id, seated.tokens[0], 0, action).json()["ok"] is True


def test_a_stale_action_is_refused_with_409(client, new_session):
    seated = new_session()
    first = seat_view(client, seated.id, seated.tokens[0])["legal"][0]
    assert act(client, seated.id, seated.tokens[0], 0, first).status_code == 200
    second = seat_view(client, seated.id, seated.tokens[1])["legal"][0]
    response = act(client, seated.id, seated.tokens[1], 0, second)
    assert response.status_code == 409
    assert response.json()["code"] == "stale" and "moved on" in response.json()["error"]
    assert public(client, seated.id)["state_id"] == 1


def test_an_illegal_action_is_refused_with_the_games_reason(client, new_session):
    seated = new_session()
    hand = seat_view(client, seated.id, seated.tokens[0])["view"]["hand"]
    missing = next(c for c in range(1, 13) if c not in hand)
    response = act(client, seated.id, seated.tokens[0], 0, {"seat": 0, "action": "play_card", "card": missing})
    assert response.status_code == 409
    reason = f"card {missing} is not in your hand"  # the tiny game's reason is a fixed sentence: its own template
    assert response.json() == {"ok": False, "code": "illegal", "error": reason, "template": reason, "params": {}}


def test_acting_out_of_turn_is_refused(client, new_session):
    seated = new_session()
    hand = seat_view(client, seated.id, seated.tokens[1])["view"]["hand"]
    response = act(client, seated.id, seated.tokens[1], 0, {"seat": 1, "action": "play_card", "card": hand[0]})
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"


MALFORMED = [
    ("not JSON", b"{oops", "JSON"),
    ("no state id", {"token": "T", "action": {"action": "play_card", "card": 1}}, "state_id"),
    ("a state id as text", {"token": "T", "state_id": "zero", "action": {"action": "play_card", "card": 1}},
     "state_id"),
    ("a negative state id", {"token": "T", "state_id": -1, "action": {"action": "play_card", "card": 1}},
     "state_id"),
    ("no action", {"token": "T", "state_id": 0}, "action"),
    ("an action that is a list", {"token": "T", "state_id": 0, "action": [1, 2]}, "action"),
    ("an unknown kind", {"token": "T", "state_id": 0, "action": {"action": "fly", "seat": 0}}, "unknown action"),
    ("a missing field", {"token": "T", "state_id": 0, "action": {"action": "play_card", "seat": 0}}, "card"),
    ("a mistyped field", {"token": "T", "state_id": 0, "action": {"action": "play_card", "seat": 0, "card": "x"}},
     "card"),
    ("an extra field", {"token": "T", "state_id": 0,
                        "action": {"action": "play_card", "seat": 0, "card": 1, "cheat": True}}, "cheat"),
    ("an extra top-level field", {"token": "T", "state_id": 0, "action": {}, "admin": True}, "admin"),
]


@pytest.mark.parametrize(("what", "body", "reason"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_input_gets_400_with_the_reason_and_changes_nothing(client, new_session, what, body, reason):
    seated = new_session()
    if isinstance(body, dict) and "token" in body:
        body = {**body, "token": seated.tokens[0]}
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(f"/api/sessions/{seated.id}/actions", content=content,
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    data = response.json()
    assert data["ok"] is False and data["code"] == "malformed"
    assert reason.lower() in data["error"].lower()
    assert public(client, seated.id)["state_id"] == 0


def test_an_unknown_session_is_404(client, new_session):
    new_session()
    response = client.get("/api/sessions/999/public")
    assert response.status_code == 404 and response.json()["code"] == "unknown_session"


def test_a_body_over_the_limit_is_refused_with_413(db_path, new_session):
    seated = new_session()
    with _client(db_path, max_body_bytes=1000) as client:
        padding = "x" * 2000
        response = act(client, seated.id, seated.tokens[0], 0, {"seat": 0, "action": "play_card", "card": 1,
                                                                "pad": padding})
        assert response.status_code == 413 and response.json()["code"] == "too_large"

        def chunks():  # no content-length: the limit holds while the body streams in
            for _ in range(10):
                yield b" " * 500

        response = client.post(f"/api/sessions/{seated.id}/actions", content=chunks(),
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 413
        assert public(client, seated.id)["state_id"] == 0


def test_actions_are_rate_limited_per_token(db_path, new_session):
    seated = new_session()
    with _client(db_path, actions_per_second=0.001, action_burst=3) as client:
        codes = [act(client, seated.id, seated.tokens[1], 0, {"seat": 1, "action": "play_card", "card": 99}).status_code
                 for _ in range(4)]
        assert codes == [409, 409, 409, 429]
        response = act(client, seated.id, seated.tokens[1], 0, {"seat": 1, "action": "play_card", "card": 99})
        assert response.json()["code"] == "rate_limited"
        # Another token has its own bucket.
        legal = seat_view(client, seated.id, seated.tokens[0])["legal"]
        assert act(client, seated.id, seated.tokens[0], 0, legal[0]).status_code == 200


def _client(db_path, **limits):
    from fastapi.testclient import TestClient

    return TestClient(create_app(Settings(db_path=db_path, server_token=SERVER_TOKEN, **limits)))


def test_a_seat_undoes_its_own_action_within_its_turn_only(client, new_session):
    seated = new_session(mode="physical")  # a physical draw waits for the table, so the turn is still open
    envelope = seat_view(client, seated.id, seated.tokens[0])
    assert act(client, seated.id, seated.tokens[0], 0, envelope["legal"][0]).status_code == 200
    response = client.post(f"/api/sessions/{seated.id}/undo", json={"token": seated.tokens[1], "state_id": 1})
    assert response.status_code == 403 and "only the host" in response.json()["error"]
    response = client.post(f"/api/sessions/{seated.id}/undo", json={"token": seated.tokens[0], "state_id": 1})
    assert response.status_code == 200 and response.json()["state_id"] == 2
    assert seat_view(client, seated.id, seated.tokens[0])["view"]["hand"] == envelope["view"]["hand"]


def test_the_host_corrects_a_score_and_undoes_it(client, new_session):
    seated = new_session()
    correction = {"seat": "host", "action": "adjust_score", "target": 2, "delta": 5}
    response = client.post(f"/api/host/sessions/{seated.id}/actions",
                           json={"token": seated.host, "state_id": 0, "action": correction})
    assert response.status_code == 200
    assert public(client, seated.id)["view"]["scores"] == [0, 0, 5]
    response = client.post(f"/api/host/sessions/{seated.id}/undo", json={"token": seated.host, "state_id": 1})
    assert response.status_code == 200
    assert public(client, seated.id)["view"]["scores"] == [0, 0, 0]


def test_a_correction_from_a_phone_is_refused(client, new_session):
    seated = new_session()
    correction = {"seat": "host", "action": "adjust_score", "target": 0, "delta": 50}
    response = act(client, seated.id, seated.tokens[0], 0, correction)
    assert response.status_code == 403 and response.json()["code"] == "not_allowed"
    assert public(client, seated.id)["view"]["scores"] == [0, 0, 0]


def test_the_host_reveals_the_drawn_card_in_physical_mode(client, new_session):
    seated = new_session(mode="physical")
    envelope = seat_view(client, seated.id, seated.tokens[0])
    act(client, seated.id, seated.tokens[0], 0, envelope["legal"][0])
    host = client.get(f"/api/host/sessions/{seated.id}", params={"token": seated.host}).json()
    assert "table" in host["envelope"]["current_seats"] and host["table_legal"]
    reveal = host["table_legal"][0]
    response = client.post(f"/api/host/sessions/{seated.id}/actions",
                           json={"token": seated.host, "state_id": 1, "action": reveal})
    assert response.status_code == 200
    assert reveal["card"] in seat_view(client, seated.id, seated.tokens[0])["view"]["hand"]


def test_the_host_page_data_lists_seats_corrections_and_languages(client, new_session):
    seated = new_session(names=["Ann", "Bo", "Cy"])
    data = client.get(f"/api/host/sessions/{seated.id}", params={"token": seated.host}).json()
    assert [s["name"] for s in data["seats"]] == ["Ann", "Bo", "Cy"]
    assert set(data["corrections"]) == {"adjust_score"}
    assert {"lang": "en", "name": "English"} in data["languages"]
    assert "hand" not in data["envelope"]["view"] and "legal" not in data["envelope"]


def test_the_host_renames_a_seat_and_changes_its_colour(client, new_session):
    seated = new_session()
    response = client.patch(f"/api/host/sessions/{seated.id}/seats/1",
                            json={"token": seated.host, "name": "Beatrix", "colour": "#123456"})
    assert response.status_code == 200
    player = public(client, seated.id)["players"][1]
    assert player == {"seat": 1, "name": "Beatrix", "colour": "#123456", "bot": None}
    bad = client.patch(f"/api/host/sessions/{seated.id}/seats/1", json={"token": seated.host, "colour": "red"})
    assert bad.status_code == 400 and "colour" in bad.json()["error"]
    missing = client.patch(f"/api/host/sessions/{seated.id}/seats/9", json={"token": seated.host, "name": "X"})
    # Seat 9 of the URL (0-based) is the host's seat 10; the answer counts from 1 like the host page.
    assert missing.status_code == 400
    assert missing.json()["error"] == "there is no seat 10: this table's seats are 1 to 3"
    beyond = client.get(f"/api/host/sessions/{seated.id}/seats/3/view", params={"token": seated.host})
    assert beyond.status_code == 400
    assert beyond.json()["error"] == "there is no seat 4: this table's seats are 1 to 3"


def test_the_lobby_creates_and_lists_sessions_with_the_server_token(client, new_session):
    new_session()
    response = client.post("/api/host/sessions", json={
        "token": SERVER_TOKEN, "game": "tiny", "players": 2, "names": ["Ann", "Bo"],
        "colours": ["#111111", "#222222"], "options": {"hand_size": 3}, "mode": "physical", "seed": 4})
    assert response.status_code == 200, response.text
    created = response.json()
    assert created["host_url"].startswith("http://testserver/host/") and "?t=" in created["host_url"]
    envelope = public(client, created["id"])
    assert envelope["mode"] == "physical" and envelope["view"]["hand_sizes"] == [3, 3]
    assert [p["colour"] for p in envelope["players"]] == ["#111111", "#222222"]
    listed = client.get("/api/host/sessions", params={"token": SERVER_TOKEN}).json()
    assert [s["id"] for s in listed][:2] == [created["id"], 1]


@pytest.mark.parametrize(("change", "reason"), [
    ({"players": 9}, "2–4 players"),
    ({"options": {"hand_size": 7}}, "hand_size"),
    ({"game": "chess"}, "no game"),
    ({"colours": ["#000000"]}, "colours"),
])
def test_the_lobby_refuses_a_game_that_cannot_be_set_up(client, change, reason):
    body = {"token": SERVER_TOKEN, "game": "tiny", "players": 2, **change}
    response = client.post("/api/host/sessions", json=body)
    assert response.status_code == 400 and reason in response.json()["error"]
    assert client.get("/api/host/sessions", params={"token": SERVER_TOKEN}).json() == []


def test_ending_a_game_refuses_further_actions(client, new_session):
    seated = new_session()
    assert client.post(f"/api/host/sessions/{seated.id}/end", json={"token": seated.host}).status_code == 200
    envelope = seat_view(client, seated.id, seated.tokens[0])
    assert envelope["status"] == "ended"
    response = act(client, seated.id, seated.tokens[0], 0, envelope["legal"][0])
    assert response.status_code == 409 and "ended" in response.json()["error"]


def test_join_codes_carry_each_seats_link_and_a_qr_code(client, new_session):
    seated = new_session(names=["Ann", "Bo", "Cy"])
    codes = client.get(f"/api/sessions/{seated.id}/join-codes", params={"token": seated.host}).json()
    assert [c["url"] for c in codes] == [f"http://testserver/join/{seated.id}?t={t}" for t in seated.tokens]
    assert [c["name"] for c in codes] == ["Ann", "Bo", "Cy"]
    for code in codes:
        assert code["qr_svg"].startswith("<svg xmlns=\"http://www.w3.org/2000/svg\"") and "<path" in code["qr_svg"]


def test_join_codes_use_the_public_address_when_one_is_set(db_path, new_session):
    from fastapi.testclient import TestClient

    seated = new_session()
    app = create_app(Settings(db_path=db_path, public_base_url="http://192.168.1.20:8765/"))
    with TestClient(app) as client:
        codes = client.get(f"/api/sessions/{seated.id}/join-codes", params={"token": seated.host}).json()
    assert codes[0]["url"] == f"http://192.168.1.20:8765/join/{seated.id}?t={seated.tokens[0]}"


def test_tags_are_enrolled_only_for_the_games_cards(client, new_session, monkeypatch):
    seated = new_session()
    game = get_game("tiny")
    monkeypatch.setattr(type(game), "cards", lambda self: tuple(f"card-{c}" for c in range(1, 13)))
    monkeypatch.setattr(type(game), "card_words", lambda self, card: Words("card {n}", {"n": int(card[5:])}))
    ok = client.post(f"/api/host/sessions/{seated.id}/tags", json={"token": seated.host, "uid": "04:a1:b2:c3",
                                                                   "card": "card-5"})
    assert ok.status_code == 200
    cards = client.get(f"/api/host/sessions/{seated.id}/tags", params={"token": seated.host}).json()["cards"]
    # The English label for the command line, the words for the page to say in its language.
    assert {"card": "card-5", "label": "card 5", "words": {"template": "card {n}", "params": {"n": 5}},
            "uid": "04A1B2C3"} in cards
    bad = client.post(f"/api/host/sessions/{seated.id}/tags", json={"token": seated.host, "uid": "04A1", "card": "x"})
    assert bad.status_code == 400 and "no card" in bad.json()["error"]
    taken = client.post(f"/api/host/sessions/{seated.id}/tags", json={"token": seated.host, "uid": "04A1B2C3",
                                                                      "card": "card-6"})
    assert taken.status_code == 403 and "already enrolled" in taken.json()["error"]


def test_the_api_is_documented_by_openapi(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in ("/api/sessions/{sid}/public", "/api/sessions/{sid}/view", "/api/sessions/{sid}/actions",
                 "/api/sessions/{sid}/undo", "/api/sessions/{sid}/join-codes", "/api/host/sessions"):
        assert path in paths
    post = paths["/api/sessions/{sid}/actions"]["post"]
    assert {"400", "401", "403", "409", "413", "429"} <= set(post["responses"])
    body = spec["components"]["schemas"]["ActionRequest"]
    assert {"token", "state_id", "action"} <= set(body["properties"]) and "state_id" in body["required"]


def test_pages_send_security_headers_and_load_nothing_from_elsewhere(client, new_session):
    seated = new_session()
    for path in (f"/join/{seated.id}?t={seated.tokens[0]}", f"/host/{seated.id}", "/host", "/"):
        response = client.get(path)
        assert response.status_code == 200
        policy = response.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert response.headers["referrer-policy"] == "no-referrer"
        assert "http://" not in response.text and "https://" not in response.text
    for name in ("phone.js", "host.js", "common.js", "actions.js", "render.js", "common.css", "phone.css"):
        text = client.get(f"/static/{name}").text
        assert "http://" not in text and "https://" not in text and "@import" not in text


def test_the_phone_page_does_not_echo_the_token(client, new_session):
    seated = new_session()
    page = client.get(f"/join/{seated.id}", params={"t": seated.tokens[0]})
    assert seated.tokens[0] not in page.text
    assert page.headers["cache-control"] == "no-store"


def test_the_settings_are_an_overridable_dependency(db_path, new_session):
    from fastapi.testclient import TestClient

    from companion.web import get_settings

    seated = new_session()
    app = create_app(Settings(db_path=db_path))
    app.dependency_overrides[get_settings] = lambda: Settings(db_path=db_path, public_base_url="http://table.lan:1")
    with TestClient(app) as client:
        codes = client.get(f"/api/sessions/{seated.id}/join-codes", params={"token": seated.host}).json()
    assert codes[0]["url"].startswith("http://table.lan:1/join/")
