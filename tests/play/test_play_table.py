"""The table around the router: the lamps, the flash and the beep, the display's keys as controller presses, the
lobby, and the display as a child process (restarted when it dies, skipped without a screen)."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request

import pygame
import pytest
from play_helpers import Display, Hand, TableThread, enroll_all, wait_until
from websockets.sync.client import connect

from companion.core.seats import TABLE
from companion.games.power_grid.actions import ChooseRegions
from companion.play.router import key_press, seat_press, tap
from companion.play.runner import TABLE_LIGHT, lamps
from companion.store import Session, Store
from display.app import DisplayApp
from display.client import PublicClient
from display.keys import SEAT_KEYS
from display.model import DisplayModel

# The buzzer's notes as the simulated PWM records them (a note is recorded when sound starts after silence, so
# "ok" is known by its second note, which follows a rest).
ERROR_NOTE = 220  # "error"
OK_NOTE = 2349  # "ok"
ACCEPT, REJECT = (0, 80, 0), (120, 0, 0)  # the strip's flashes


def new_session(db, game: str, players: int, mode: str = "digital", seed: int = 1) -> Session:
    store = Store(db)
    return Session.create(store, game, players, seed=seed, mode=mode)


def shown(board) -> tuple[list[str], str]:
    hexes = ["".join(f"{c:02x}" for c in colour) for colour in board.hardware.pixels.shown]
    return hexes[:7], hexes[7]


def test_every_input_gets_a_beep_and_a_flash_and_the_lamps_show_whose_turn_it_is(tmp_path):
    db = tmp_path / "t.sqlite3"
    session = new_session(db, "power_grid", 3, "physical")
    uids = enroll_all(db, "power_grid")
    table = TableThread(db, str(session.id)).start()
    display = Display(table.url, session.id, session.host_token)
    try:
        board, hand = table.board, Hand(table.board, uids)
        notes = board.hardware.pwm.notes
        wait_until(lambda: display.state_id == 0, what="the display")
        hand.perform([seat_press(1)])  # the host is still to choose the regions
        wait_until(lambda: ERROR_NOTE in notes, 5, "the error beep")
        refused = wait_until(lambda: [f for f in display.feedback() if not f["ok"]], 5, "the refusal on the display")
        assert refused[-1]["source"] == "board" and "regions" in refused[-1]["text"]
        hand.perform([key_press("ok")])  # the proposed regions
        wait_until(lambda: OK_NOTE in notes, 5, "the accept beep")
        wait_until(lambda: display.state_id == 1, what="the regions")
        chooser = table.live.session.state.chooser()
        wait_until(lambda: shown(board) == lamps(table.live.session), 5, "the lamps")
        lit_seats, strip = shown(board)
        assert [i for i, c in enumerate(lit_seats) if c != "000000"] == [chooser]
        assert strip == lit_seats[chooser]
        plant = table.live.session.state.current_market()[0]
        hand.perform([tap(f"plant-{plant:02d}")])
        wait_until(lambda: display.state_id == 2, what="the auction to open")
        bidder = table.live.session.state.auction.turn
        wait_until(lambda: [i for i, c in enumerate(shown(board)[0]) if c != "000000"] == [bidder], 5,
                   "the bidder's lamp")
        hand.perform([seat_press((bidder + 1) % 3)])  # not this seat's turn to bid
        wait_until(lambda: tuple(board.hardware.pixels.shown[7]) == REJECT, 5, "the red flash")
        wait_until(lambda: any("turn to bid" in f["text"] for f in display.feedback() if not f["ok"]), 5,
                   "the reason on the display")
        hand.perform([seat_press(bidder)])  # a bid
        wait_until(lambda: tuple(board.hardware.pixels.shown[7]) == ACCEPT, 5, "the green flash")
    finally:
        display.close()
        table.stop()


def test_the_display_keys_act_as_the_controller_and_never_ask_for_a_seats_view(tmp_path, monkeypatch):
    """The shared screen may show nothing private: it never fetches a seat's view or uses a seat's token, and its
    development keys reach the router as controller presses."""
    import companion.web.app as web_app

    seen: list[tuple[str, str, str]] = []
    create_app = web_app.create_app

    def recording_app(settings):
        app = create_app(settings)

        async def recorder(scope, receive, send):
            if scope["type"] in ("http", "websocket"):
                seen.append((scope["type"], scope["path"], scope.get("query_string", b"").decode()))
            await app(scope, receive, send)

        recorder.state = app.state  # type: ignore[attr-defined]
        return recorder

    monkeypatch.setattr(web_app, "create_app", recording_app)
    db = tmp_path / "t.sqlite3"
    session = new_session(db, "power_grid", 3)
    tokens = [row.token for row in session.store.seats(session.id)]
    table = TableThread(db, str(session.id)).start()
    model = DisplayModel()
    app = DisplayApp(model, (800, 480))
    client = PublicClient(table.url, session.id, app.deliver, host_token=session.host_token)
    app.client = client
    client.start()
    try:
        wait_until(lambda: (app.step(timeout_ms=5), model.join_codes and model.envelope)[1], what="the display")
        app.key("ok")  # OK in the lobby begins
        app.command("choices")  # Act: only the host's and the table's choices
        wait_until(lambda: (app.step(timeout_ms=5), model.choices)[1], what="the host's choices")
        assert model.choices.seat == "host"
        assert all(a["seat"] == "host" and a["action"] == "choose_regions" for _, a in model.choices.items)
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code("return"), mod=0))
        wait_until(lambda: table.live.session.state_id == 1, what="the regions chosen on the display")
        assert isinstance(table.live.session.live_actions()[0], ChooseRegions)
        handled = table.table.handled
        keys = [(name, 0) for name in [*SEAT_KEYS, *"qweasdzxc", "return", "backspace", "u"]]
        keys += [("1", pygame.KMOD_LSHIFT), ("u", pygame.KMOD_LSHIFT)]
        for name, mod in keys:
            app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name), mod=mod))
            time.sleep(0.1)  # as fast as fingers, and within the host token's rate limit
            app.step(timeout_ms=1)
        wait_until(lambda: table.table.handled >= handled + len(keys), what="the router to hear the display's keys")
        wait_until(lambda: (app.step(timeout_ms=5), any(f.source == "board" for f in model.feedback))[1],
                   what="the router's answers on the display")
    finally:
        client.stop()
        pygame.display.quit()
        table.stop()
    paths = [path for _, path, _ in seen]
    assert any(p.endswith("/public") for p in paths) and any(p.endswith("/join-codes") for p in paths)
    assert not any(p.endswith("/view") or p.endswith("/seat") for p in paths), paths
    assert not any(token in query for token in tokens for _, _, query in seen)


def test_a_controller_event_from_the_public_socket_needs_the_host_token(tmp_path):
    db = tmp_path / "t.sqlite3"
    session = new_session(db, "bohnanza", 3)
    seat_token = session.store.seats(session.id)[0].token
    table = TableThread(db, str(session.id)).start()
    try:
        url = table.url.replace("http://", "ws://") + f"/ws/sessions/{session.id}/public"
        with connect(url) as ws:
            event = {"kind": "button", "button": 0, "action": "press"}
            for token, expected in ((seat_token, "only the host"), (None, "needs the host token")):
                message = {"type": "board", "event": event} | ({"token": token} if token else {})
                ws.send(json.dumps(message))
                reply = next(m for m in (json.loads(ws.recv(5)) for _ in range(5)) if m["type"] == "feedback")
                assert not reply["ok"] and expected in reply["text"]
            ws.send(json.dumps({"type": "board", "event": event, "token": session.host_token}))
            planted = next(m for m in (json.loads(ws.recv(5)) for _ in range(10))
                           if m["type"] == "feedback" and m["source"] == "board")
            assert planted["ok"] and planted["action"]["action"] == "plant_bean"
            ws.send(json.dumps({"type": "board", "event": {"kind": "button", "button": 9}, "token":
                                session.host_token}))
            bad = next(m for m in (json.loads(ws.recv(5)) for _ in range(5)) if m["type"] == "feedback")
            assert not bad["ok"] and "seat button is 0" in bad["text"]
    finally:
        table.stop()


def test_with_no_game_open_the_lobby_comes_first_and_a_game_started_there_is_followed(tmp_path):
    """`companion play` with nothing open: the lobby link (printed, and as a QR code on the display); the game the
    host starts there becomes the one the controller and the display follow. The display is a child process,
    started again when it dies."""
    db = tmp_path / "t.sqlite3"
    table = TableThread(db, None, display=True, size="800x480").start()
    try:
        assert table.table is not None and table.table.display is not None
        process = table.table.display
        lobby = next(line for line in table.lines if "choose one on the host page" in line)
        token = lobby.split("t=")[1]
        first = wait_until(lambda: process.pid, 20, "the display child (the lobby)")
        body = json.dumps({"token": token, "game": "bohnanza", "players": 3, "seed": 4}).encode()
        request = urllib.request.Request(table.url + "/api/host/sessions", body,
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            sid = json.loads(reply.read())["id"]
        wait_until(lambda: table.table.live is not None and table.table.live.id == sid, 10, "the new game")
        assert any(f"game {sid} was started on the host page" in line for line in table.lines)

        def display_connected() -> bool:
            live = table.table.hub.sessions.get(sid)
            return live is not None and any(c.viewer is None for c in live.connections)

        second = wait_until(lambda: process.pid not in (None, first) and process.pid, 20, "the game's display")
        wait_until(display_connected, 30, "the display child to connect")
        os.kill(second, signal.SIGKILL)
        third = wait_until(lambda: process.pid not in (None, second) and process.pid, 20, "a new display")
        assert third != second and process.starts == 3
        assert any("starting it again" in line for line in table.lines)
        wait_until(display_connected, 30, "the new display to connect")
        hand = Hand(table.board, {})
        active = table.live.session.state.active
        hand.perform([seat_press(active)])
        wait_until(lambda: table.live.session.state_id == 1, what="the controller to plant in the new game")
    finally:
        table.stop()
    assert table.table.display.pid is None  # stopped with the table


def test_without_a_screen_the_table_runs_and_says_how_to_show_it_elsewhere(tmp_path, monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    db = tmp_path / "t.sqlite3"
    session = new_session(db, "shifting_stones", 2)
    table = TableThread(db, str(session.id), display=True).start()
    try:
        assert table.table is not None and table.table.display is None
        line = next(line for line in table.lines if line.startswith("display:"))
        assert "there is no screen here" in line and f"companion display --url {table.url}" in line
    finally:
        table.stop()


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_the_table_lamp_is_white_while_a_card_is_to_be_revealed(tmp_path, mode):
    db = tmp_path / "t.sqlite3"
    session = new_session(db, "shifting_stones", 2, mode)
    seats, strip = lamps(Session(Store(db), session.id))
    awaiting = TABLE in session.game.current_seats(session.state)
    assert awaiting == (mode == "physical")
    if awaiting:
        assert strip == TABLE_LIGHT and seats == ["000000"] * 7
    else:
        turn = session.state.turn
        assert strip == seats[turn] != "000000"
