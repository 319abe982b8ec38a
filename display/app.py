"""The display's main loop: messages in, scenes chosen, only changed panels redrawn, asleep when nothing changes."""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from typing import Any

import pygame

from display.i18n import _, language, western_digits
from display.keys import press_for_key
from display.model import DisplayModel
from display.render import Context
from display.render.layout import layout_for
from display.render.widgets import Painter
from display.scenes import Scene, SceneStack
from display.scenes.table import ChoicesOverlay, GameScene, JoinOverlay, LobbyScene, SummaryScene

# The longest the loop sleeps with nothing to do: it wakes at once for any message anyway.
IDLE_WAIT_MS = 5000
# SDL hands over a key or a touch only when asked, and pygame's own wait asks every millisecond (about 1.6 % of a
# core here, more on a Pi). Idle, the loop asks every IDLE_POLL_MS and sleeps in between (a server message still
# wakes it at once); for BUSY_SECONDS after a key or a touch it waits the pygame way, for quick answers to the next.
IDLE_POLL_MS = 20
BUSY_SECONDS = 2.0
# The keys that are the controller's (sent to the server's input router), and a seat key's double press.
CONTROLLER_KEYS = frozenset({"seat", "pad", "ok", "back", "undo"})
DOUBLE_SECONDS = 0.3
BASE_SCENES: dict[str, type[Scene]] = {"lobby": LobbyScene, "game": GameScene, "summary": SummaryScene}
# The events that are a person at the screen (after one the loop answers the next at once, see BUSY_SECONDS).
INPUT_EVENTS = frozenset({pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
                          pygame.FINGERDOWN, pygame.FINGERUP, pygame.MOUSEMOTION, pygame.FINGERMOTION})


class Screen:
    """The model drawn on a surface (a window or an image): the scene stack and its layout."""

    def __init__(self, model: DisplayModel, surface: pygame.Surface) -> None:
        self.model = model
        self.stack = SceneStack()
        self.resize(surface)

    def resize(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.layout = layout_for(surface.get_size())
        self.painter = Painter(self.layout.scale)
        self.ctx = Context(self.painter, self.layout, self.model)
        self.stack.invalidate()

    def sync_scene(self) -> None:
        """Put the scene the model calls for at the bottom of the stack (keeping overlays when it stays)."""
        wanted = self.model.scene_name()
        base = self.stack.scenes[0] if self.stack.scenes else None
        if base is None or base.name != wanted:
            self.stack.replace_base(BASE_SCENES[wanted](), self.model)
        top = self.stack.top
        if self.model.choices is not None and not isinstance(top, ChoicesOverlay):
            self.stack.push(ChoicesOverlay(), self.model)
        elif self.model.choices is None and isinstance(top, ChoicesOverlay):
            self.stack.pop(self.model)

    def render(self, force: bool = False) -> list[pygame.Rect]:
        if self.painter.language != (language(), western_digits()):
            # Another language: other fonts, other texts, so every layer and sprite is painted again.
            self.resize(self.surface)
        self.sync_scene()
        return self.stack.draw(self.surface, self.ctx, force)


class DisplayApp:
    """A window showing the public table; `client` (optional) feeds it and carries the host's choices."""

    def __init__(self, model: DisplayModel, size: tuple[int, int] = (1280, 720), *, fullscreen: bool = False,
                 client: Any = None) -> None:
        self.model = model
        self.client = client
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.size = size
        self.fullscreen = fullscreen
        self.running = False
        self.frames = 0  # frames that drew something
        self.renders = 0  # times the loop looked for changed panels (an idle wake does not)
        self.polls = 0  # times the loop asked SDL for input
        self._woken = threading.Event()  # set by `deliver`, from any thread
        self._last_input = -BUSY_SECONDS
        self._last_seat_press: tuple[Any, float] | None = None
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(_("The table companion"))
        self._wake = pygame.event.custom_type()
        self.window = self._open_window()
        self.screen = Screen(model, self.window)

    def _open_window(self) -> pygame.Surface:
        flags = pygame.FULLSCREEN if self.fullscreen else 0
        return pygame.display.set_mode(self.size if not self.fullscreen else (0, 0), flags)

    # -- messages from the client thread ---------------------------------------------------------
    def deliver(self, message: dict[str, Any]) -> None:
        """Safe from any thread: queue the message and wake the loop."""
        self.inbox.put(message)
        self._woken.set()
        if pygame.display.get_init():
            # A full event queue means the loop is awake anyway and drains the inbox.
            with contextlib.suppress(pygame.error):
                pygame.event.post(pygame.event.Event(self._wake))

    def _drain(self) -> bool:
        """Apply every queued message; whether there was any."""
        applied = False
        while True:
            try:
                message = self.inbox.get_nowait()
            except queue.Empty:
                return applied
            self.model.apply_message(message)
            applied = True

    # -- the loop ----------------------------------------------------------------------------------
    def step(self, timeout_ms: int | None = None) -> list[pygame.Rect]:
        """Wait for something (at most until the next toast expires), handle it, redraw what changed.

        A wake with nothing to do (the wait ran out, no event, no message, no toast expired) draws nothing and does
        not even look for changed panels."""
        deadline = self.model.next_deadline()
        wait = IDLE_WAIT_MS if timeout_ms is None else timeout_ms
        if deadline is not None:
            wait = max(1, min(wait, int((deadline - self.model.clock()) * 1000) + 1))
        events = self._wait(wait)
        for e in events:
            self.handle(e)
        drained = self._drain()
        expired = self.model.expire()
        if not (events or drained or expired):
            return []
        self.renders += 1
        rects = self.screen.render()
        if rects:
            pygame.display.update(rects)
            self.frames += 1
        return rects

    def _wait(self, wait_ms: int) -> list[Any]:
        """The events that came within `wait_ms` (none when only a message came, or nothing did)."""
        end = time.monotonic() + wait_ms / 1000
        events: list[Any] = []
        while True:
            self._woken.clear()
            self.polls += 1
            events += [e for e in pygame.event.get() if e.type not in (pygame.NOEVENT, self._wake)]
            left = end - time.monotonic()
            if events:
                if any(e.type in INPUT_EVENTS for e in events):
                    self._last_input = time.monotonic()
                return events
            if not self.inbox.empty() or left <= 0:
                return []
            if time.monotonic() - self._last_input < BUSY_SECONDS:
                # Just used: pygame's wait answers the next key or touch within a millisecond (a message posts
                # the wake event, which ends it too).
                events.append(pygame.event.wait(max(1, round(left * 1000))))
                events = [e for e in events if e.type not in (pygame.NOEVENT, self._wake)]
            else:
                self._woken.wait(min(left, IDLE_POLL_MS / 1000))

    def run(self) -> None:
        self.running = True
        self.screen.render(force=True)
        pygame.display.flip()
        while self.running:
            self.step()
        pygame.display.quit()

    # -- input -------------------------------------------------------------------------------------
    def handle(self, event: Any) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            if surface is not None:
                self.screen.resize(surface)
            return
        if event.type == pygame.WINDOWEXPOSED:
            self.screen.stack.invalidate()
            return
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.running = False
                return
            press = press_for_key(pygame.key.name(event.key))
            if press:
                self.key(*press, held=bool(event.mod & pygame.KMOD_SHIFT))
            return
        top = self.screen.stack.top
        if top is not None:
            for command, arg in top.handle(event, self.screen.ctx):
                self.command(command, arg)

    def key(self, name: str, arg: Any = None, *, held: bool = False) -> None:
        """A development key. The controller's keys go to the server's input router as simulated presses, exactly
        like the real controller's (Shift makes a held press); while the host's choices are open, the keypad, OK
        and BACK work the choices instead."""
        model = self.model
        if model.choices is not None and name in ("pad", "ok", "back", "move"):
            self.command(name, arg)
        elif name == "ok" and model.scene_name() == "lobby":
            model.dismiss_lobby()
        elif name in CONTROLLER_KEYS:
            self._controller(name, arg, held)
        else:
            self.command(name, arg)

    def _controller(self, name: str, arg: Any, held: bool) -> None:
        if not self._needs_host():
            return
        now = self.model.clock()
        gesture = "long" if held else "press"
        if name == "seat" and not held:
            last = self._last_seat_press
            if last is not None and last[0] == arg and now - last[1] <= DOUBLE_SECONDS:
                gesture = "double"
            self._last_seat_press = None if gesture == "double" else (arg, now)
        if name == "seat":
            event = {"kind": "button", "button": int(arg), "action": gesture}
        else:
            event = {"kind": "key", "key": str(int(arg) + 1) if name == "pad" else name, "action": gesture}
        self.client.press(event)

    def command(self, name: str, arg: Any = None) -> None:
        """A press, key or tap, whatever its source; answered on screen."""
        model = self.model
        if name == "fullscreen":
            self.fullscreen = not self.fullscreen
            self.window = self._open_window()
            self.screen.resize(self.window)
        elif name == "start":
            model.dismiss_lobby()
        elif name in ("join", "close"):
            top = self.screen.stack.top
            if isinstance(top, JoinOverlay) or name == "close":
                if isinstance(top, JoinOverlay):
                    self.screen.stack.pop(model)
            elif model.scene_name() == "game":
                self.screen.stack.push(JoinOverlay(), model)
        elif name == "back":
            if model.choices is not None:
                model.close_choices()
            elif isinstance(self.screen.stack.top, JoinOverlay):
                self.screen.stack.pop(model)
        elif name == "move":
            model.move_choice(int(arg or 0))
        elif name == "pick":
            if model.choices is not None and 0 <= int(arg) < len(model.choices.items):
                model.choices.index = int(arg)
        elif name == "pad":
            if model.choices is not None:
                first = model.choices.index // ChoicesOverlay.PAGE * ChoicesOverlay.PAGE
                if first + int(arg) < len(model.choices.items):
                    model.choices.index = first + int(arg)
        elif name == "ok":
            if model.scene_name() == "lobby":
                model.dismiss_lobby()
            elif model.choices is not None:
                self._submit_choice()
        elif name == "seat":
            self._controller("seat", int(arg), False)
        elif name == "choices" and self._needs_host():
            # Only what the host may do from a shared screen: the table's reveals and the host's own moves.
            self.client.request_host_choices()
        elif name == "jobs_page":
            model.turn_jobs_page(1, int(arg or 1))
        elif name == "job_done" and self._needs_host():
            # The table did it on the real board: anyone may tick a job, and it changes no game state.
            state_id = (model.envelope or {}).get("state_id")
            self.client.send_action({"seat": "table", "action": "job_done", "job": arg}, state_id)
        elif name == "undo" and self._needs_host():
            state_id = (model.envelope or {}).get("state_id")
            self.client.undo(state_id)

    def _needs_host(self) -> bool:
        if self.client is None or not getattr(self.client, "host_token", None):
            self.model.add_feedback(False, _("the display needs the host token for that (--host-token)"), None,
                                    "display")
            return False
        return True

    def _submit_choice(self) -> None:
        choices = self.model.choices
        if choices is None or choices.selected is None or not self._needs_host():
            return
        state_id = choices.state_id if choices.state_id is not None else (self.model.envelope or {}).get("state_id")
        self.client.send_action(choices.selected, state_id)
        self.model.close_choices()


def run_display(base_url: str, session: int, *, host_token: str | None = None, size: tuple[int, int] = (1280, 720),
                fullscreen: bool = False, lang: str | None = None, western_digits: bool | None = None) -> None:
    """`companion display`: a window on the server's public view until it is closed.

    The language is `lang`, else $COMPANION_LANG (how `companion play` passes it to its display child); digits
    are the language's own unless `western_digits` (or $COMPANION_DIGITS=latn) asks for 0-9.
    """
    from display.client import PublicClient
    from display.i18n import set_language

    lang = lang or os.environ.get("COMPANION_LANG")
    if western_digits is None:
        western_digits = os.environ.get("COMPANION_DIGITS") == "latn"
    if lang:
        set_language(lang, western_digits)
    model = DisplayModel()
    app: DisplayApp | None = None
    pending: list[dict[str, Any]] = []

    def listener(message: dict[str, Any]) -> None:
        if app is None:
            pending.append(message)
        else:
            app.deliver(message)

    client = PublicClient(base_url, session, listener, host_token=host_token)
    app = DisplayApp(model, size, fullscreen=fullscreen, client=client)
    for message in pending:
        app.deliver(message)
    client.start()
    try:
        app.run()
    finally:
        client.stop()


def headless() -> None:
    """Make pygame draw without a screen (tests, snapshots, benches)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def render_image(model: DisplayModel, size: tuple[int, int]) -> tuple[pygame.Surface, Screen]:
    """The whole table drawn on an off-screen surface (no window needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size)
    screen = Screen(model, surface)
    screen.render(force=True)
    return surface, screen
