"""The display window headless: it sleeps when nothing changes, wakes for messages, and keys act as the controller."""

from __future__ import annotations

import time

import pygame
import pytest

from companion.cli.main import main
from display.app import DisplayApp
from display.model import DisplayModel


class FakeClient:
    """Records what the display asked of the server."""

    def __init__(self, host_token: str | None = "HOST") -> None:
        self.host_token = host_token
        self.sent: list[tuple] = []

    def send_action(self, action, state_id):
        self.sent.append(("action", action, state_id))

    def undo(self, state_id):
        self.sent.append(("undo", state_id))

    def press(self, event):
        self.sent.append(("press", event))

    def request_host_choices(self):
        self.sent.append(("host_choices",))


def view_message(state_id: int = 1) -> dict:
    return {"type": "view", "view": {
        "session": 1, "game": "tiny", "title": "Tiny", "state_id": state_id, "players": [
            {"seat": 0, "name": "Ada", "colour": "#d62728"}, {"seat": 1, "name": "Ben", "colour": "#1f77b4"}],
        "current_seats": [0], "over": False, "view": {"scores": [0, 0]}, "log": []}}


@pytest.fixture
def app():
    application = DisplayApp(DisplayModel(), (800, 480), client=FakeClient())
    application.screen.render(force=True)
    yield application
    pygame.display.quit()


def key(app: DisplayApp, name: str) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name), mod=0))
    app.screen.render()


def test_the_display_sleeps_when_nothing_changes(app):
    app.step(timeout_ms=5)
    started = time.monotonic()
    assert app.step(timeout_ms=60) == []
    assert time.monotonic() - started >= 0.05  # it waited rather than spinning


def test_a_message_from_the_client_thread_wakes_the_loop_and_redraws(app):
    app.step(timeout_ms=5)
    app.deliver(view_message())
    started = time.monotonic()
    rects = app.step(timeout_ms=2000)
    assert rects and time.monotonic() - started < 1.0
    assert app.model.scene_name() == "game"


def test_the_controller_keys_are_sent_as_controller_presses_never_as_a_seats_choices(app):
    app.deliver(view_message())
    app.deliver({"type": "join_codes", "codes": [{"seat": 0, "name": "Ada", "url": "http://h/join/1?t=a"},
                                                 {"seat": 1, "name": "Ben", "url": "http://h/join/1?t=b"}]})
    app.step(timeout_ms=5)
    key(app, "2")
    assert app.client.sent[-1] == ("press", {"kind": "button", "button": 1, "action": "press"})
    key(app, "2")
    assert app.client.sent[-1] == ("press", {"kind": "button", "button": 1, "action": "double"})
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code("3"), mod=pygame.KMOD_LSHIFT))
    assert app.client.sent[-1] == ("press", {"kind": "button", "button": 2, "action": "long"})
    key(app, "s")
    assert app.client.sent[-1] == ("press", {"kind": "key", "key": "5", "action": "press"})
    key(app, "return")
    assert app.client.sent[-1] == ("press", {"kind": "key", "key": "ok", "action": "press"})
    assert all(s[0] == "press" for s in app.client.sent)


def test_act_offers_only_the_hosts_public_choices_and_ok_does_the_highlighted_one(app):
    app.deliver(view_message())
    app.step(timeout_ms=5)
    app.command("choices")
    assert app.client.sent[-1] == ("host_choices",)
    legal = [{"seat": "table", "action": "reveal_card", "card": c} for c in (2, 7, 11)]
    app.deliver({"type": "choices", "seat": "table", "legal": legal, "state_id": 1})
    app.step(timeout_ms=5)
    assert app.screen.stack.top.name == "choices"
    key(app, "down")
    key(app, "return")
    assert app.client.sent[-1] == ("action", legal[1], 1)
    assert app.model.choices is None and app.screen.stack.top.name == "game"


def test_the_keypad_picks_and_back_closes(app):
    app.deliver(view_message())
    app.deliver({"type": "choices", "seat": 0, "legal": [{"seat": 0, "action": "pass"}, {"seat": 0, "action": "x"}]})
    app.step(timeout_ms=5)
    key(app, "w")  # the keypad's second key
    assert app.model.choices.index == 1
    key(app, "escape")
    assert app.model.choices is None
    assert all(s[0] != "action" for s in app.client.sent)


def test_a_tap_on_a_choice_does_it(app):
    app.deliver(view_message())
    app.deliver({"type": "choices", "seat": 0, "legal": [{"seat": 0, "action": "play_card", "card": 4}]})
    app.step(timeout_ms=5)
    overlay = app.screen.stack.top
    _index, rect = overlay.rows(app.screen.ctx)[0]
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=rect.center, button=1))
    assert app.client.sent[-1] == ("action", {"seat": 0, "action": "play_card", "card": 4}, 1)


def test_undo_is_the_controllers_key_and_the_touch_button_is_the_hosts_undo(app):
    app.deliver(view_message(5))
    app.step(timeout_ms=5)
    key(app, "u")
    assert app.client.sent[-1] == ("press", {"kind": "key", "key": "undo", "action": "press"})
    app.command("undo")
    assert app.client.sent[-1] == ("undo", 5)


def test_without_the_host_token_a_press_is_refused_with_the_reason():
    application = DisplayApp(DisplayModel(), (800, 480), client=FakeClient(host_token=None))
    try:
        application.deliver(view_message())
        application.step(timeout_ms=5)
        key(application, "u")
        assert application.client.sent == []
        assert "host token" in application.model.feedback[-1].text
    finally:
        pygame.display.quit()


def test_ok_in_the_lobby_starts_the_game(app):
    app.deliver(view_message(0))
    app.step(timeout_ms=5)
    assert app.model.scene_name() == "lobby"
    key(app, "return")
    assert app.model.scene_name() == "game"


def test_j_shows_the_join_codes_over_the_game_and_again_hides_them(app):
    app.deliver(view_message())
    app.step(timeout_ms=5)
    key(app, "j")
    assert app.screen.stack.top.name == "join"
    key(app, "j")
    assert app.screen.stack.top.name == "game"


def test_companion_snapshot_writes_a_picture(tmp_path, capsys):
    out = tmp_path / "tiny.png"
    assert main(["snapshot", "tiny", "--players", "3", "--seed", "2", "--steps", "3", "--size", "800x480",
                 "--out", str(out)]) == 0
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (800, 480)
    assert "state 3" in capsys.readouterr().out


def test_companion_snapshot_refuses_a_bad_size(tmp_path, capsys):
    assert main(["snapshot", "tiny", "-p", "2", "--size", "big", "--out", str(tmp_path / "x.png")]) == 1
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
