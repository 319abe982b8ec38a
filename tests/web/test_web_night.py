"""The game night's API: history in words with undo to here (preview, then apply), a seat's view for the host,
regions with colours, phones and network (Wi-Fi code), the summary rebuilt from the log, the rematch."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.core import HOST, TABLE
from companion.store import Session, Store
from companion.store import history as history_module
from companion.web import Settings, create_app
from companion.web.network import Wifi, parse_wifi, wifi_from_system

NAMES = ["Ann", "Bob", "Cyd"]


def play_out(db_path: Path, game: str, players: int, seed: int, steps: int = 5000) -> tuple[int, str]:
    """A whole random game in the store; returns the session id and its host token."""
    store = Store(db_path)
    try:
        session = Session.create(store, game, players, seed=seed, names=NAMES[:players])
        rng = random.Random(seed)
        for _ in range(steps):
            if session.game.is_over(session.state):
                break
            seats = [s for s in session.game.current_seats(session.state) if session.legal_actions(s)]
            seat = rng.choice(seats)
            legal = session.legal_actions(seat)
            # Score whenever possible, so random Shifting Stones games end.
            scoring = [a for a in legal if a.kind == "score_card"]
            session.submit(rng.choice(scoring or legal), HOST if seat in (TABLE, HOST) else seat)
        assert session.game.is_over(session.state)
        return session.id, session.host_token
    finally:
        store.close()


def started(db_path: Path, game: str = "power_grid", steps: int = 12) -> tuple[int, str]:
    store = Store(db_path)
    try:
        session = Session.create(store, game, 3, seed=5, names=NAMES)
        rng = random.Random(2)
        for _ in range(steps):
            seats = [s for s in session.game.current_seats(session.state) if session.legal_actions(s)]
            seat = rng.choice(seats)
            session.submit(rng.choice(session.legal_actions(seat)), HOST if seat in (TABLE, HOST) else seat)
        return session.id, session.host_token
    finally:
        store.close()


def test_history_lists_every_action_in_words_with_players_named(client, db_path):
    sid, token = started(db_path, steps=12)
    entries = client.get(f"/api/host/sessions/{sid}/history", params={"token": token}).json()["entries"]
    assert len(entries) == 12
    assert [e["seq"] for e in entries] == sorted(e["seq"] for e in entries)
    for entry in entries:
        assert entry["text"] and "seat " not in entry["text"]
    assert any(name in e["text"] for e in entries for name in NAMES)
    assert client.get(f"/api/host/sessions/{sid}/history").status_code == 401


def test_undo_to_here_previews_then_applies(client, db_path):
    sid, token = started(db_path, steps=12)
    entries = client.get(f"/api/host/sessions/{sid}/history", params={"token": token}).json()["entries"]
    target = entries[7]["seq"]
    before = client.get(f"/api/sessions/{sid}/public").json()
    preview = client.get(f"/api/host/sessions/{sid}/history/{target}/undo", params={"token": token}).json()
    assert [e["seq"] for e in preview["undone"]] == [e["seq"] for e in reversed(entries[7:])]
    # The preview changed nothing.
    assert client.get(f"/api/sessions/{sid}/public").json()["state_id"] == before["state_id"]
    stale = client.post(f"/api/host/sessions/{sid}/undo-to",
                        json={"token": token, "state_id": before["state_id"] - 1, "seq": target})
    assert stale.status_code == 409
    done = client.post(f"/api/host/sessions/{sid}/undo-to",
                       json={"token": token, "state_id": before["state_id"], "seq": target})
    assert done.status_code == 200, done.text
    after = client.get(f"/api/host/sessions/{sid}/history", params={"token": token}).json()["entries"]
    assert [e["seq"] for e in after] == [e["seq"] for e in entries[:7]]
    missing = client.get(f"/api/host/sessions/{sid}/history/{target}/undo", params={"token": token})
    assert missing.status_code == 403


def test_the_host_sees_a_seats_view_to_act_for_it(client, db_path):
    sid, token = started(db_path, steps=3)
    view = client.get(f"/api/host/sessions/{sid}/seats/1/view", params={"token": token}).json()
    assert view["seat"] == 1 and "legal" in view
    assert client.get(f"/api/host/sessions/{sid}/seats/7/view", params={"token": token}).status_code == 400


def test_regions_come_with_colours_names_and_the_proposal(client, db_path):
    sid, token = started(db_path, steps=0)
    info = client.get(f"/api/host/sessions/{sid}/regions", params={"token": token}).json()
    assert len(info["regions"]) == 6 and info["count"] == 3
    assert all(r["colour"].startswith("#") and r["name"] and r["cities"] for r in info["regions"])
    assert len(info["proposal"]) == 3 and set(info["proposal"]) <= {r["id"] for r in info["regions"]}


def test_phones_say_which_seats_have_no_phone(client, db_path):
    sid, token = started(db_path, steps=0)
    seat_token = Store(db_path).seats(sid)[1].token
    with client.websocket_connect(f"/ws/sessions/{sid}/seat?token={seat_token}") as ws:
        ws.receive_json()
        data = client.get(f"/api/host/sessions/{sid}/phones", params={"token": token}).json()
        assert data == {"connected": [1], "missing": [0, 2]}
        assert client.get(f"/api/host/sessions/{sid}", params={"token": token}).json()["connected"] == [1]


def test_network_gives_the_wifi_code_and_the_links(db_path, tmp_path):
    sid, token = started(db_path, steps=0)
    settings = Settings(db_path=db_path, server_token="s" * 20, wifi_ssid="Table; Wi-Fi", wifi_password="pass:word1",
                        mdns=True, port=8765)
    from fastapi.testclient import TestClient

    with TestClient(create_app(settings)) as client:
        net = client.get(f"/api/host/sessions/{sid}/network", params={"token": token}).json()
    assert net["wifi"]["payload"] == r"WIFI:S:Table\; Wi-Fi;T:WPA;P:pass\:word1;;"
    assert net["wifi"]["qr_svg"].startswith("<svg")
    assert net["mdns_url"] == "http://companion.local:8765"


def test_wifi_from_the_command_line_and_the_pis_files(tmp_path):
    assert parse_wifi("Home:secret123") == Wifi("Home", "secret123")
    with pytest.raises(Exception, match="8 to 63"):
        parse_wifi("Home:short")
    nm = tmp_path / "nm"
    nm.mkdir()
    (nm / "table.nmconnection").write_text("[connection]\nid=table\n[wifi]\nmode=infrastructure\nssid=TableNet\n"
                                           "[wifi-security]\nkey-mgmt=wpa-psk\npsk=beans4all\n")
    assert wifi_from_system(nm, tmp_path / "none.conf") == Wifi("TableNet", "beans4all")
    wpa = tmp_path / "wpa.conf"
    wpa.write_text('ctrl_interface=x\nnetwork={\n    ssid="Old Pi"\n    psk="stones123"\n}\n')
    assert wifi_from_system(tmp_path / "empty", wpa) == Wifi("Old Pi", "stones123")
    assert wifi_from_system(tmp_path / "empty", tmp_path / "none.conf") is None


@pytest.mark.parametrize(("game", "players", "series"), [
    ("power_grid", 3, {"money", "cities", "powered"}),
    ("bohnanza", 2, {"coins"}),
    ("shifting_stones", 2, {"points"}),
])
def test_the_summary_of_a_finished_game_comes_from_the_log(client, db_path, game, players, series):
    sid, _ = play_out(db_path, game, players, seed=3)
    summary = client.get(f"/api/sessions/{sid}/summary").json()
    assert summary["over"] is True and set(summary["series"]) == series
    store = Store(db_path)
    session = Session(store, sid)
    scores = session.game.scores(session.state)
    ranking = summary["ranking"]
    assert sorted(r["seat"] for r in ranking) == list(range(players))
    assert [r["score"] for r in ranking if not r["winner"]] == sorted(
        (r["score"] for r in ranking if not r["winner"]), reverse=True)
    assert {r["seat"] for r in ranking if r["winner"]} == set(scores["winners"])
    assert ranking[0]["winner"] and ranking[0]["rank"] == 1
    for data in summary["series"].values():
        assert len(data["values"]) == players and data["title"]
        assert all(len(v) == len(summary["rounds"]) for v in data["values"])
    final = session.game.series(session.state)
    for key in series:
        assert [v[-1] for v in summary["series"][key]["values"]] == final[key]
    if summary["tie_break"] is not None:
        assert "seat " not in summary["tie_break"]["text"]


def test_rematch_keeps_players_colours_and_options(client, db_path):
    store = Store(db_path)
    session = Session.create(store, "bohnanza", 3, seed=1, names=NAMES, options={"offers_per_turn": 7},
                             colours=["#111111", "#222222", "#333333"])
    response = client.post(f"/api/host/sessions/{session.id}/rematch", json={"token": session.host_token})
    assert response.status_code == 200, response.text
    new = Session(store, response.json()["id"])
    assert new.id != session.id and new.names() == NAMES
    assert [s.colour for s in store.seats(new.id)] == ["#111111", "#222222", "#333333"]
    assert new.config == session.config
    assert response.json()["host_url"].endswith(f"/host/{new.id}?t={new.host_token}")


def test_finished_games_are_listed_with_winners(db_path):
    sid, _ = play_out(db_path, "shifting_stones", 2, seed=4)
    Session.create(Store(db_path), "bohnanza", 3, seed=1)  # not finished: not listed
    listed = history_module.finished(Store(db_path))
    assert [g["id"] for g in listed] == [sid]
    assert listed[0]["players"] == NAMES[:2] and listed[0]["winners"]
