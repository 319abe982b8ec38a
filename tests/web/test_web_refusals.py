"""Refusals reach people in their language: the template and params travel beside the English reason (REST,
WebSocket feedback), and a phone and the table display turn them into a translated sentence with the players'
names and the language's digits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from companion.core.public import REFUSED
from companion.core.registry import get_game
from companion.core.seats import HOST
from companion.i18n import SEAT_ARGS, catalog, log_line
from companion.store import Session, Store
from display import i18n as display_i18n
from display.model import DisplayModel

NAMES = ["Ana", "Bo", "Cy"]
# The languages the refusals are read in (Icelandic shares English digits; Bengali and Sindhi have their own).
LANGS = ("bn", "sd", "is", "si")


def _illegal(game: str, session: Session) -> tuple[int, dict[str, Any]]:
    """A seat and an action the rules refuse with a reason that has params, in each game's opening."""
    engine = session.game
    if game == "power_grid":
        session.submit(engine.legal_actions(session.state, HOST)[0], HOST, session.state_id)
        seat = engine.current_seats(session.state)[0]
        assert isinstance(seat, int)
        opening = next(a.to_json() for a in engine.legal_actions(session.state, seat) if a.kind == "open_auction")
        return seat, {**opening, "bid": 1}  # below the plant's number
    current = engine.current_seats(session.state)[0]
    assert isinstance(current, int)
    other = (current + 1) % session.config.players
    action = engine.legal_actions(session.state, current)[0].to_json()
    return other, {**action, "seat": other}  # not this seat's turn


@pytest.fixture
def table(db_path: Path) -> Iterator[Any]:
    """A stored game with its players named, and the refused try prepared for it."""

    def make(game: str) -> tuple[int, str, str, int, dict[str, Any]]:
        store = Store(db_path)
        try:
            players = 2 if game == "shifting_stones" else 3
            session = Session.create(store, game, players, seed=7, names=NAMES[:players])
            seat, action = _illegal(game, session)
            tokens = {r.seat: r.token for r in store.seats(session.id)}
            return session.id, session.host_token, tokens[seat], session.state_id, action | {"seat": seat}
        finally:
            store.close()

    yield make
    display_i18n.set_language("en", False)


def _feedback(ws: Any) -> dict[str, Any]:
    for _ in range(20):
        message = ws.receive_json()
        if message["type"] == "feedback":
            return message
    raise AssertionError("no feedback")


def _check_translated(template: str, params: dict[str, Any], english: str, shown: str, lang: str) -> None:
    """`shown` is the refusal in `lang`: not the English sentence, no placeholder left, its params in it."""
    cat = catalog(lang)
    assert template in cat.messages, f"{lang} lacks {template!r}"
    assert shown != english and "{" not in shown, (lang, shown)
    for key, value in params.items():
        if key in SEAT_ARGS and isinstance(value, int):
            assert NAMES[value] in shown, (lang, key, shown)
        elif isinstance(value, int) and not isinstance(value, bool):
            assert cat.number(value) in shown, (lang, key, shown)


@pytest.mark.parametrize("game", ["power_grid", "bohnanza", "shifting_stones"])
def test_a_refusal_reaches_the_phone_and_the_display_translated(client: TestClient, table: Any, game: str) -> None:
    sid, host, token, state_id, action = table(game)
    with client.websocket_connect(f"/ws/sessions/{sid}/seat?token={token}") as phone:
        assert phone.receive_json()["type"] == "view"
        phone.send_json({"type": "action", "state_id": state_id, "action": action})
        mine = _feedback(phone)
    assert mine["ok"] is False and mine["params"], mine
    template, params, english = mine["template"], mine["params"], mine["text"]
    assert template != english and "{" not in english  # the English sentence is filled in (seats may read "seat 2")
    view = client.get(f"/api/sessions/{sid}/view", params={"token": token}).json()
    names = [p["name"] for p in sorted(view["players"], key=lambda p: p["seat"])]
    for lang in LANGS:
        # What the phone page does (common.js reasonText: the log line's rules, the same as companion.i18n's).
        _check_translated(template, params, english, log_line(template, params, catalog(lang), names), lang)

    # The display hears the host's try for that seat in words only when the game says the reason is public;
    # otherwise it says, in its language, that a move was refused.
    with client.websocket_connect(f"/ws/sessions/{sid}/public") as public:
        envelope = public.receive_json()
        public.send_json({"type": "action", "state_id": state_id, "action": action, "token": host})
        shown = _feedback(public)
    engine = get_game(game)
    if template in engine.public_refusals:
        assert shown["template"] == template and shown["params"] == params
    else:
        assert (shown["template"], shown["params"], shown["text"]) == (REFUSED, {}, REFUSED)
        assert set(shown["action"]) == {"seat", "action"}
    for lang in LANGS:
        display_i18n.set_language(lang, False)
        model = DisplayModel(clock=lambda: 0.0)
        model.set_envelope(envelope["view"])
        model.apply_message(shown)
        line = model.feedback_line(model.feedback[-1])
        if shown["template"] == REFUSED:
            assert catalog(lang).gettext(REFUSED) in line and REFUSED not in line, (lang, line)
        else:
            _check_translated(template, params, english, line, lang)


def test_the_public_stream_withholds_a_phones_refusal(client: TestClient, table: Any) -> None:
    sid, _host, token, state_id, action = table("bohnanza")
    with client.websocket_connect(f"/ws/sessions/{sid}/public") as public:
        public.receive_json()
        with client.websocket_connect(f"/ws/sessions/{sid}/seat?token={token}") as phone:
            phone.receive_json()
            phone.send_json({"type": "action", "state_id": state_id, "action": action})
            assert _feedback(phone)["template"]
        seen = _feedback(public)
    # Its reason is public (whose turn it is), but a seat's own try is never worded to the table.
    assert seen["ok"] is False and seen["text"] == REFUSED and seen["template"] == REFUSED and seen["params"] == {}


def test_a_rest_refusal_carries_template_and_params(client: TestClient, table: Any) -> None:
    sid, _host, token, state_id, action = table("power_grid")
    response = client.post(f"/api/sessions/{sid}/actions", json={"token": token, "state_id": state_id,
                                                                 "action": action})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "illegal" and body["params"] == {"plant": action["plant"], "bid": action["plant"]}
    assert body["template"].format(**body["params"]) == body["error"]
    stale = client.post(f"/api/sessions/{sid}/actions", json={"token": token, "state_id": 0, "action": action})
    assert stale.status_code == 409
    assert stale.json()["template"] == "the game has moved on (you saw state {seen}, it is now {now})"
    assert stale.json()["params"] == {"seen": 0, "now": state_id}
