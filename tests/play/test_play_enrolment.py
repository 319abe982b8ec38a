"""Enrolling a deck from the host page while `companion play` runs: the simulated controller's taps and keys go to
the enrolment (not the game), each answered with a flash and a beep, and the card ids are written onto the tags."""

from __future__ import annotations

import json
import urllib.request

from play_helpers import TableThread, wait_until

from companion.store import Session, Store

A, B = "04000000000C01", "04000000000C02"


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def test_the_controller_enrols_the_deck_the_host_page_walks(tmp_path):
    db = tmp_path / "t.sqlite3"
    session = Session.create(Store(db), "power_grid", 3, seed=1, mode="physical")
    table = TableThread(db, str(session.id)).start()
    try:
        board = table.board
        url = f"{table.url}/api/host/sessions/{session.id}/enrolment"
        started = post(url, {"token": session.host_token, "do": "start", "write": True})
        assert started["controller"] is True and started["active"] is True
        assert started["enrolment"]["card"] == "plant-03"

        def enrolment() -> dict:
            with urllib.request.urlopen(f"{url}?token={session.host_token}", timeout=10) as reply:
                return json.loads(reply.read())["enrolment"]

        board.place_tag(A)
        wait_until(lambda: enrolment()["card"] == "plant-04", 10, "plant 3 enrolled from the reader")
        # The card id goes onto the tag after the step is saved: the card stays on the reader until it is there.
        wait_until(lambda: bytes(board.tags[A].memory[16:18]) == b"TC", 10, "the card id written onto the tag")
        board.remove_tag()
        board.key("back")  # plant 4 skipped
        wait_until(lambda: enrolment()["card"] == "plant-05", 10, "BACK to skip")
        board.key("undo")
        wait_until(lambda: enrolment()["card"] == "plant-04", 10, "UNDO to take it back")
        wait_until(lambda: Store(db).tags("power_grid").get(A) == "plant-03", 5, "the tag in the store")
        assert table.live.session.state_id == 0, "no tap reached the game"
        board.place_tag(B)
        wait_until(lambda: enrolment()["card"] == "plant-05", 10, "plant 4 enrolled")
        board.remove_tag()
        table.table.hub.enrolling = None  # as after a restart: the walk is in the store, the taps go to the game
        with urllib.request.urlopen(f"{url}?token={session.host_token}", timeout=10) as reply:
            assert json.loads(reply.read())["active"] is False
        assert post(url, {"token": session.host_token, "do": "start"})["active"] is True  # "Continue"
        post(url, {"token": session.host_token, "do": "stop"})
        assert Store(db).tags("power_grid") == {A: "plant-03", B: "plant-04"}
    finally:
        table.stop()
