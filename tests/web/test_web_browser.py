"""The phone page in headless Chromium at 360×740: join by link, see the hand, move, survive a restart."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from web_helpers import CHROMIUM, PHONE, ThreadServer, free_port, get, phone_page, post

from companion.core.registry import all_games, get_game
from companion.testing.harness import choose_actor
from companion.web import Settings

playwright = pytest.importorskip("playwright.sync_api")

RANDOM_STEPS = 25
TESTS = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian's chromium is not installed")


class ServeProcess:
    """`companion serve ID` as the host runs it, on 127.0.0.1."""

    def __init__(self, sid: int, db_path: Path, port: int) -> None:
        self.argv = [sys.executable, "-m", "companion", "serve", str(sid), "--bind", "127.0.0.1", "--port", str(port),
                     "--db", str(db_path)]
        self.env = dict(os.environ, COMPANION_GAMES="tiny_game", PYTHONPATH=str(TESTS))
        self.base = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ServeProcess:
        self.process = subprocess.Popen(self.argv, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while True:
            try:
                urllib.request.urlopen(f"{self.base}/api/health", timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("companion serve did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)


def server_session(server: ThreadServer, sid: int):
    """The live Session inside the thread server (to pick random legal moves from)."""
    return server.server.config.app.state.hub.sessions[sid].session


def test_a_phone_joins_sees_its_hand_moves_and_survives_a_server_restart(browser, db_path, new_session, artifacts):
    seated = new_session("tiny", 3, names=["Ann", "Bo", "Cy"])
    server = ServeProcess(seated.id, db_path, free_port()).start()
    errors: list[str] = []
    try:
        page = phone_page(browser, errors)
        page.goto(f"{server.base}/join/{seated.id}?t={seated.tokens[0]}")
        page.wait_for_selector("body[data-state-id='0']")
        assert "t=" not in page.url  # the token left the address bar for this tab's storage

        hand = get(f"{server.base}/api/sessions/{seated.id}/view?token={seated.tokens[0]}")["view"]["hand"]
        shown = page.locator("#main .hand .card").all_inner_texts()
        assert [int(text) for text in shown] == hand
        assert page.locator(".turn.mine").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        page.locator("#actions .group.cards .card").first.click()
        page.locator("#actions .confirm button").first.click()
        page.wait_for_selector("body[data-state-id='1']")
        assert "Bo" in page.locator(".turn").inner_text()
        assert len(page.locator("#main .hand .card").all()) == 2  # played one, drew one
        page.screenshot(path=str(artifacts / "phone-tiny-after-move.png"))

        server.stop()
        page.wait_for_selector("#top .conn.offline")
        server.start()
        page.wait_for_selector("#top .conn.online", timeout=15000)
        # The game goes on while the phone watches: seat 1 plays through the API.
        legal = get(f"{server.base}/api/sessions/{seated.id}/view?token={seated.tokens[1]}")["legal"]
        post(f"{server.base}/api/sessions/{seated.id}/actions",
             {"token": seated.tokens[1], "state_id": 1, "action": legal[0]})
        page.wait_for_selector("body[data-state-id='2']", timeout=10000)
        assert "Cy" in page.locator(".turn").inner_text()
        page.close()
    finally:
        server.stop()
    assert errors == [], errors


def test_a_refused_action_shows_the_reason_and_a_bad_link_says_so(browser, db_path, new_session):
    seated = new_session("tiny", 2)
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port())
    errors: list[str] = []
    with ThreadServer(settings) as server:
        page = phone_page(browser, errors)
        page.goto(f"{server.base}/join/{seated.id}?t={seated.tokens[0]}")
        page.wait_for_selector("body[data-state-id='0']")
        page.locator("#actions button.undo").click()  # nothing to undo yet
        page.wait_for_selector("#toast .toast.error")
        assert "nothing to undo" in page.locator("#toast").inner_text()
        # The host ends the game: the phone says so and offers nothing more.
        post(f"{server.base}/api/host/sessions/{seated.id}/end", {"token": seated.host})
        page.wait_for_selector(".turn.ended")
        assert page.locator("#actions .group").count() == 0
        page.close()

        other = phone_page(browser, errors)
        other.goto(f"{server.base}/join/{seated.id}?t=not-a-real-token")
        other.wait_for_selector(".fatal")
        assert "not valid" in other.locator(".fatal").inner_text()
        other.close()
    assert errors == [], errors


def test_each_games_phone_page_renders(browser, db_path, new_session, artifacts):
    games = sorted(all_games())
    sessions = {}
    for name in games:
        game = get_game(name)
        players = min(max(3, game.min_players), game.max_players)
        sessions[name] = new_session(name, players, seed=2)
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port())
    errors: list[str] = []
    with ThreadServer(settings) as server:
        page = phone_page(browser, errors)
        for name, seated in sessions.items():
            envelope = get(f"{server.base}/api/sessions/{seated.id}/public")
            while not any(isinstance(s, int) for s in envelope["current_seats"]):
                # The game first asks the host (Power Grid's regions) or the table: the host page would do it.
                host_view = get(f"{server.base}/api/host/sessions/{seated.id}?token={seated.host}")
                action = (host_view["host_legal"] or host_view["table_legal"])[0]
                post(f"{server.base}/api/host/sessions/{seated.id}/actions",
                     {"token": seated.host, "state_id": envelope["state_id"], "action": action})
                envelope = get(f"{server.base}/api/sessions/{seated.id}/public")
            current = next(s for s in envelope["current_seats"] if isinstance(s, int))
            page.goto(f"{server.base}/join/{seated.id}?t={seated.tokens[current]}")
            page.wait_for_selector("body[data-state-id]")
            page.wait_for_selector("#actions .group")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1, name
            page.screenshot(path=str(artifacts / f"phone-{name}.png"), full_page=True)
            page.locator("#actions").screenshot(path=str(artifacts / f"phone-{name}-actions.png"))
            # The game moves on through its phases while the phone watches; every view must draw.
            rng = random.Random(1)
            session = server_session(server, seated.id)
            for _ in range(RANDOM_STEPS):
                pick = choose_actor(session.game, session.state, rng)
                if pick is None:
                    break
                post(f"{server.base}/api/host/sessions/{seated.id}/actions",
                     {"token": seated.host, "state_id": session.state_id, "action": rng.choice(pick[1]).to_json()})
                page.wait_for_selector(f"body[data-state-id='{session.state_id}']")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1, name
            page.screenshot(path=str(artifacts / f"phone-{name}-later.png"), full_page=True)
        host = browser.new_page(viewport={"width": 1100, "height": 900})
        host.on("pageerror", lambda exc: errors.append(str(exc)))
        first = sessions[games[0]]
        host.goto(f"{server.base}/host/{first.id}?t={first.host}#join")
        host.wait_for_selector(".qr img")
        host.screenshot(path=str(artifacts / "host-page.png"), full_page=True)
        host.close()
    assert errors == [], errors


def test_the_host_reveals_a_drawn_card_and_undoes_it_from_the_host_page(browser, db_path, new_session, artifacts):
    seated = new_session("tiny", 2, mode="physical")
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port())
    errors: list[str] = []
    with ThreadServer(settings) as server:
        legal = get(f"{server.base}/api/sessions/{seated.id}/view?token={seated.tokens[0]}")["legal"]
        post(f"{server.base}/api/sessions/{seated.id}/actions", {"token": seated.tokens[0], "state_id": 0,
                                                                  "action": legal[0]})
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.base}/host/{seated.id}?t={seated.host}")
        reveal = page.locator(".moves-panel")
        reveal.get_by_text("Reveal for the table").wait_for()
        reveal.locator(".card").first.click()
        reveal.locator(".confirm button").click()
        page.wait_for_selector("body[data-state-id='2']")
        assert "table" not in get(f"{server.base}/api/sessions/{seated.id}/public")["current_seats"]
        page.screenshot(path=str(artifacts / "host-page-tiny.png"), full_page=True)
        page.get_by_role("button", name="Undo the last action").click()
        page.wait_for_selector("body[data-state-id='3']")
        assert "table" in get(f"{server.base}/api/sessions/{seated.id}/public")["current_seats"]
        page.close()
    assert errors == [], errors


def test_the_lobby_starts_a_game_and_opens_its_host_page(browser, db_path):
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port(), server_token="lobby-token")
    errors: list[str] = []
    with ThreadServer(settings) as server:
        page = browser.new_page(viewport={"width": 400, "height": 900})
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.base}/host?t=lobby-token")
        form = page.locator("form.new-game")
        form.locator("select[name=game]").select_option("tiny")
        form.locator("select[name=players]").select_option("2")
        form.locator(".seat-row input[type=text]").first.fill("Ann")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("body[data-state-id]")
        assert "/host/1" in page.url and "t=" not in page.url
        page.locator("#tabs [data-tab=players]").click()
        names = page.locator(".seat-row input[type=text]").evaluate_all("els => els.map(e => e.value)")
        assert names == ["Ann", "Player 2"]
        page.close()
    assert errors == [], errors


def test_a_phone_shows_its_hints_when_they_follow_the_view(browser, db_path, new_session, artifacts):
    """Views go out first and hints after: the page draws the view, then adds the hints for that same state."""
    seated = new_session("shifting_stones", 3, seed=2)
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port())
    errors: list[str] = []
    with ThreadServer(settings) as server:
        page = phone_page(browser, errors)
        page.goto(f"{server.base}/join/{seated.id}?t={seated.tokens[0]}")
        page.wait_for_selector("body[data-state-id='0']")
        page.wait_for_selector("section.hints", timeout=60_000)  # the first hints wait for the worker to start
        session = server_session(server, seated.id)
        seat = next(s for s in session.game.current_seats(session.state) if isinstance(s, int))
        action = session.legal_actions(seat)[0]
        post(f"{server.base}/api/host/sessions/{seated.id}/actions",
             {"token": seated.host, "state_id": session.state_id, "action": action.to_json()})
        page.wait_for_selector("body[data-state-id='1']")
        page.wait_for_selector("section.hints", timeout=30_000)
        assert page.locator("section.hints").count() == 1
        page.screenshot(path=str(artifacts / "phone-hints-after-view.png"), full_page=True)
    assert errors == [], errors


def test_hints_cut_short_with_nothing_found_show_no_raw_fields(browser, db_path, new_session, artifacts, monkeypatch):
    """A loaded table whose hint search runs out of time before it finds anything: the phone shows no hints section
    rather than the hint fields' raw names ("This turn", "Fewest actions")."""
    from companion.games.shifting_stones import hints as stones_hints

    game = get_game("shifting_stones")
    monkeypatch.setattr(type(game), "hints", lambda self, state, seat: stones_hints.advice(state, seat, budget=0.0))
    seated = new_session("shifting_stones", 3, seed=2)
    settings = Settings(db_path=db_path, host="127.0.0.1", port=free_port(), hint_workers=0)  # hints in this process
    errors: list[str] = []
    with ThreadServer(settings) as server:
        page = phone_page(browser, errors)
        hint_messages: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: hint_messages.append(frame)
                                              if '"type":"hints"' in str(frame).replace(" ", "") else None))
        page.goto(f"{server.base}/join/{seated.id}?t={seated.tokens[0]}")
        page.wait_for_selector("body[data-state-id='0']")
        deadline = time.monotonic() + 30
        while not hint_messages:
            assert time.monotonic() < deadline, "no hints arrived"
            page.wait_for_timeout(50)
        assert '"exact":false' in hint_messages[0].replace(" ", "")
        page.wait_for_timeout(300)
        assert page.locator("section.hints").count() == 0
        shown = page.evaluate("document.body.textContent")
        assert "This turn" not in shown and "Fewest" not in shown
        page.screenshot(path=str(artifacts / "phone-hints-cut-short.png"), full_page=True)
    assert errors == [], errors
