"""The table at work: the server, the controller and its router, the lights and the display, for the game in play.

One asyncio loop runs uvicorn (the phones, the host page, the display's socket), the board link (a plugged-in
controller, else the simulated one) and the router, which turns every press and tap into a decision, carries it
out through the hub (so phones and displays hear of it like of any other action), then answers on the board: a
flash and a beep, accepted or refused, while the seat lamps show whose turn it is. The display runs as a child
process. Everything acknowledged is in SQLite, so after a crash or a power cut the next start resumes the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import uvicorn

from companion.core.errors import BadConfig, MalformedAction, NotAllowed
from companion.core.game import Mode
from companion.core.names import printable
from companion.core.registry import get_game
from companion.core.seats import TABLE
from companion.i18n import N_, cli_text
from companion.link import BoardEvent, BoardLink
from companion.link.events import KEYS
from companion.link.lights import within_budget
from companion.play.router import GESTURES, Act, Decision, Note, Refuse, Router, Undo
from companion.play.screen import DisplayProcess, screen_problem
from companion.store import Session, Store
from companion.web.hub import Adaptive, set_from_any_thread

SEAT_LAMPS = 7
DARK = "000000"
# The strip when the table is to reveal a card: a warm white that with the 23 pixels' idle draw stays at about
# 235 mA, inside the 350 mA the LEDs may take from the Pi's USB port (full white would be about 1 A).
TABLE_LIGHT = "403830"
BOARD_WAIT = 3.0  # seconds `ready` waits for a controller to say hello
HOTPLUG_SCAN = 1.0  # seconds between looks for a controller plugged in while the simulated one runs
TAKEN_OVER = N_("A controller was plugged in: it takes over from the simulated one")
UNPLUGGED = N_("The controller was unplugged: the phones take every move until it is back")
BACK = N_("The controller is back")


@dataclasses.dataclass
class PlayOptions:
    """Everything `companion play` was asked for."""

    db_path: Path
    game: str | None = None  # a game name, a stored session's id, or None: resume the open game, else the lobby
    players: int | None = None
    mode: Mode | None = None
    seed: int | None = None
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    chance: dict[str, Mode] = dataclasses.field(default_factory=dict)
    names: list[str] | None = None
    bots: dict[int, str] = dataclasses.field(default_factory=dict)  # seat index -> bot level (a new game)
    new: bool = False
    bind: str = "0.0.0.0"
    port: int = 8765
    base_url: str | None = None
    server_token: str | None = None
    board: str | None = None  # a serial port; None: a plugged-in controller, else the simulated one
    simulate: bool = True
    sim_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    board_commands: bool = False  # read the simulated board's commands from stdin
    display: bool = True
    fullscreen: bool = False
    size: str = "1280x720"
    wifi: str | None = None  # `--wifi SSID:PASSWORD` (else the Pi's own Wi-Fi, when readable)
    mdns: bool = True  # announce companion.local


def default_players(game_name: str) -> int:
    game = get_game(game_name)
    return min(max(4, game.min_players), game.max_players)


def choose_session(store: Store, options: PlayOptions) -> tuple[int | None, str]:
    """The session to play and how it was chosen: the id asked for, the open one of the game asked for (unless
    --new or another player count or mode was asked for), a new one; with no game named, the open one played
    last, else None (the lobby)."""
    target = options.game
    if target is None:
        sid = store.latest_open()
        return (sid, _resumed(store, sid)) if sid is not None else (None, "")
    if target.isdigit():
        try:
            row = store.session(int(target))
        except KeyError:
            raise BadConfig(f"there is no game {target} in {store.path}") from None
        return row.id, _resumed(store, row.id)
    game = get_game(target)
    if not options.new:
        sid = store.latest_open(game.name)
        if sid is not None:
            config = store.session(sid).config
            if (options.players in (None, config["players"]) and options.mode in (None, config.get("mode"))
                    and not options.bots):
                return sid, _resumed(store, sid) + " (--new starts another)"
    players = options.players or default_players(game.name)
    session = Session.create(store, game.name, players, seed=options.seed, mode=options.mode or "digital",
                             options=options.options, chance=options.chance, names=options.names, bots=options.bots)
    return session.id, f"new game {session.id}: {game.title}, {players} players, {session.config.mode}"


def _resumed(store: Store, sid: int) -> str:
    row = store.session(sid)
    actions = sum(1 for r in store.log(sid) if r.kind == "action" and not r.undone)
    title = get_game(row.game).title
    return f"resuming game {sid}: {title}, {row.config['players']} players, {actions} actions so far"


def colour_hex(colour: str) -> str:
    text = colour.lstrip("#").lower()
    return text if len(text) == 6 else DARK


def lamps(session: Session, budget_ma: int | None = None) -> tuple[list[str], str]:
    """The seat lamps (lit in the player's colour when that seat is to act) and the strip (the colour of the one
    seat to act, white when the table is to reveal a card, the winner's colour at the end), dimmed to fit the
    LEDs' current budget with the worst flash over the strip (companion/link/lights.py)."""
    seats, strip = _lamps(session)
    seats, fitted = within_budget(seats, strip, budget_ma=budget_ma)
    assert isinstance(fitted, str)
    return seats, fitted


def _lamps(session: Session) -> tuple[list[str], str]:
    colours = {row.seat: colour_hex(row.colour) for row in session.store.seats(session.id)}
    state = session.state
    game = session.game
    if game.is_over(state):
        winners = game.scores(state).get("winners") or []
        lit = [w for w in winners if isinstance(w, int)]
        seats = [colours.get(i, DARK) if i in lit else DARK for i in range(SEAT_LAMPS)]
        return seats, colours.get(lit[0], DARK) if len(lit) == 1 else DARK
    current = set(game.current_seats(state))
    seats = [colours.get(i, DARK) if i in current else DARK for i in range(SEAT_LAMPS)]
    players = [s for s in current if isinstance(s, int)]
    if TABLE in current:
        strip = TABLE_LIGHT
    elif len(players) == 1:
        strip = colours.get(players[0], DARK)
    else:
        strip = DARK
    return seats, strip


def event_from_json(data: dict[str, Any]) -> BoardEvent:
    """A simulated controller event as the display sends it: {"kind": "button", "button": 2, "action": "long"},
    {"kind": "key", "key": "5", "action": "press"}, {"kind": "tag", "uid": "04A1..."}."""
    kind = data.get("kind")
    action = data.get("action", "press")
    if kind == "button":
        button = data.get("button")
        if not isinstance(button, int) or isinstance(button, bool) or not 0 <= button < SEAT_LAMPS:
            raise MalformedAction("a seat button is 0–{last}", last=SEAT_LAMPS - 1)
        if action not in GESTURES:
            raise MalformedAction("a button's action is one of {gestures}", gestures=", ".join(GESTURES))
        return BoardEvent("button", "display", button=button, action=action)
    if kind == "key":
        key = data.get("key")
        if key not in KEYS:
            raise MalformedAction("a key is one of {keys}", keys=" ".join(KEYS))
        if action not in GESTURES:
            raise MalformedAction("a key's action is one of {gestures}", gestures=", ".join(GESTURES))
        return BoardEvent("key", "display", key=key, action=action)
    if kind == "tag":
        uid = data.get("uid")
        if not isinstance(uid, str) or not 0 < len(uid) <= 32:
            raise MalformedAction("a tag event needs the tag's uid")
        return BoardEvent("tag", "display", uid=uid.upper(), present=True)
    raise MalformedAction("a controller event's kind is button, key or tag")


class Table:
    """`companion play` in one object: `await Table(options).run()` until stopped (SIGINT or SIGTERM, or
    `stop()`)."""

    def __init__(self, options: PlayOptions, out: Callable[[str], None] | None = None) -> None:
        self.options = options
        self.out = out or (lambda line: print(line, flush=True))
        self.started = time.perf_counter()
        self.server: Any = None
        self.announcer: Any = None
        self._announcing: asyncio.Task[bool] | None = None
        self.hub: Any = None
        self.board: BoardLink | None = None
        self.display: DisplayProcess | None = None
        self.live: Any = None  # the LiveSession in play
        self.router: Router | None = None
        self.ready = asyncio.Event()
        self.handled = 0  # controller inputs decided (tests wait for it)
        self.errors: list[str] = []
        self.base_url = ""
        self.local_url = ""
        self.server_token = options.server_token or secrets.token_urlsafe(24)
        self._stop = asyncio.Event()
        self._inbox: asyncio.Queue[BoardEvent] = asyncio.Queue()
        self._lights_dirty = asyncio.Event()
        self._lamps: tuple[list[str], str] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._pump_task: asyncio.Task[None] | None = None
        self._board_lost = False  # a real controller was unplugged and has not come back yet
        self._known = 0  # the newest game id already in the store when the table started
        # Most decisions are look-ups, made on the loop (handing them to a thread costs more than they do); a game
        # whose inputs may search decides in a worker thread, as the loop serves the phones meanwhile.
        self._decide = Adaptive()

    def stop(self) -> None:
        self._stop.set()

    # -- the whole life ------------------------------------------------------------------------------
    async def run(self) -> int:
        from companion.cli.serve import public_base

        options = self.options
        store = Store(options.db_path)
        try:
            sid, how = choose_session(store, options)
            # Only games started from now on are followed (a phone opening an older game is no reason to switch).
            self._known = max((row.id for row in store.sessions()), default=0)
        finally:
            store.close()
        self.base_url = public_base(options.bind, options.port, options.base_url)
        local_host = "127.0.0.1" if options.bind in ("0.0.0.0", "::", "") else options.bind
        self.local_url = f"http://{'[' + local_host + ']' if ':' in local_host else local_host}:{options.port}"
        if how:
            self.out(f"companion: {how}")
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self.stop)
        serving = await self._serve(sid)
        if serving is None:
            return 1
        try:
            self.board = await self._open_board()
            self._tasks += [asyncio.create_task(self._work(), name="router"),
                            asyncio.create_task(self._lights(), name="lights"),
                            asyncio.create_task(self._follow_new_games(), name="follow")]
            if self.board is not None:
                self._pump_task = asyncio.create_task(self._pump(self.board), name="board-events")
            self._tasks.append(asyncio.create_task(self._watch_for_a_board(), name="hot-plug"))
            self._start_display()
            if sid is not None:
                await self.attach(sid)
            else:
                self.out(f"companion: no game is open; choose one on the host page: {self._lobby_url()}")
            if self.board is not None:
                with contextlib.suppress(TimeoutError):
                    await self.board.wait_connected(BOARD_WAIT)
                if not self.board.connected:
                    self.out("controller: not connected yet" + (f" ({self.board.last_error})"
                                                                if self.board.last_error else ""))
            self.out(f"companion: ready in {time.perf_counter() - self.started:.2f} s")
            self.ready.set()
            stop = asyncio.create_task(self._stop.wait())
            await asyncio.wait({stop, serving}, return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
        finally:
            await self._shut_down(serving)
        return 0

    async def _serve(self, sid: int | None) -> asyncio.Task[Any] | None:
        from companion.web.app import create_app
        from companion.web.deflate import ws_protocol
        from companion.web.network import Announcer, table_wifi
        from companion.web.settings import Settings

        options = self.options
        wifi = table_wifi(options.wifi)
        settings = Settings(db_path=options.db_path, session_id=sid, host=options.bind, port=options.port,
                            public_base_url=self.base_url, server_token=self.server_token,
                            wifi_ssid=wifi.ssid if wifi else None, wifi_password=wifi.password if wifi else "",
                            mdns=options.mdns)
        if options.mdns:
            # zeroconf made on this thread would adopt the running loop and its blocking calls would wait on it
            # for ever; its probing also takes seconds. So it announces from a thread while the table starts.
            self.announcer = Announcer(options.port)
            self._announcing = asyncio.create_task(asyncio.to_thread(self.announcer.start), name="mdns")
        app = create_app(settings)
        config = uvicorn.Config(app, host=options.bind, port=options.port, log_level="warning",
                                access_log=False, ws_max_size=max(4 * settings.max_message_bytes, 65536),
                                server_header=False, proxy_headers=False, lifespan="on",
                                limit_concurrency=settings.limit_concurrency, backlog=settings.backlog,
                                ws=ws_protocol())
        self.server = _Server(config)
        serving = asyncio.create_task(self.server.serve(), name="server")
        while not self.server.started:
            if serving.done():
                exc = serving.exception() if not serving.cancelled() else None
                self.out(f"companion: cannot serve on {options.bind}:{options.port}"
                         + (f" ({exc})" if exc and not isinstance(exc, SystemExit) else " (is the port in use?)"))
                return None
            await asyncio.sleep(0.01)
        self.hub = app.state.hub
        self.hub.board_input = self._from_display
        tr = cli_text()  # the table's language: `companion play --lang` (kept in $COMPANION_LANG for the display too)
        where = options.bind if options.bind not in ("0.0.0.0", "::") else tr("all interfaces")
        self.out(tr("companion: serving on {where}, port {port}; store {store}", where=where, port=str(options.port),
                    store=str(options.db_path)))
        return serving

    async def _shut_down(self, serving: asyncio.Task[Any]) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.display is not None:
            await self.display.stop()
        tasks = [*self._tasks, *([self._pump_task] if self._pump_task is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.board is not None:
            await self.board.close()
        if self.server is not None:
            self.server.should_exit = True
        if self.announcer is not None:
            if self._announcing is not None:
                with contextlib.suppress(Exception):
                    await self._announcing
            await asyncio.to_thread(self.announcer.stop)
        with contextlib.suppress(asyncio.CancelledError, SystemExit, Exception):
            await serving

    # -- the session in play -------------------------------------------------------------------------
    async def attach(self, sid: int) -> None:
        """Follow session `sid`: the router, the lamps and the display turn to it; its links are printed."""
        live = await self.hub.live(sid)
        if self._unsubscribe is not None:
            self._unsubscribe()
        loop = asyncio.get_running_loop()
        self.live = live
        self.router = Router(live.session)
        self._unsubscribe = live.session.subscribe(lambda *_: set_from_any_thread(loop, self._lights_dirty))
        self._lights_dirty.set()
        session = live.session
        tr = cli_text()
        self.out(tr("host page: {url}", url=f"{self.base_url}/host/{sid}?t={session.host_token}"))
        for row in session.store.seats(sid):
            if row.bot:
                self.out(tr("seat {seat} ({name}): played by a bot ({level}); the host page gives it back to a person",
                            seat=str(row.seat + 1), name=printable(row.name), level=level_word(tr, row.bot)))
                continue
            self.out(tr("seat {seat} ({name}): {url}", seat=str(row.seat + 1), name=printable(row.name),
                        url=f"{self.base_url}/join/{sid}?t={row.token}"))
        self.out(tr("another game: {url}", url=self._lobby_url()))
        if self.display is not None:
            self.display.show(sid, session.host_token)

    def _lobby_url(self) -> str:
        return f"{self.base_url}/host?t={self.server_token}"

    async def _follow_new_games(self) -> None:
        """A game started from the host page becomes the one in play."""
        while True:
            await asyncio.sleep(0.5)
            newer = [sid for sid, live in list(self.hub.sessions.items())
                     if sid > self._known and live.session.status == "open"]
            if newer:
                self._known = max(newer)
                self.out(f"companion: game {self._known} was started on the host page; it is now the one in play")
                await self.attach(self._known)

    # -- the display ---------------------------------------------------------------------------------
    def _start_display(self) -> None:
        options = self.options
        if not options.display:
            self.out("display: off (--no-display)")
            return
        problem = screen_problem()
        if problem is not None:
            self.out(f"display: {problem}; running without it. On a machine with a screen: "
                     f"companion display --url {self.base_url} --session N")
            return
        self.display = DisplayProcess(self.local_url, fullscreen=options.fullscreen, size=options.size, out=self.out)
        self.display.show(None, lobby_url=self._lobby_url())

    # -- the controller ------------------------------------------------------------------------------
    async def _open_board(self) -> BoardLink | None:
        from companion.link.discovery import find_boards

        options = self.options
        if options.board:
            self.out(f"controller: {options.board}")
            return await BoardLink(options.board).start()
        boards = find_boards()
        if boards:
            self.out(f"controller: {boards[0].device} ({boards[0].description or 'Raspberry Pi Pico'})")
            return await BoardLink().start()
        if not options.simulate:
            self.out("controller: none plugged in; the phones and the display take every move")
            return None
        link = BoardLink.simulated(**options.sim_options)
        await link.start()
        self.out(f"controller: none plugged in, so the simulated board runs (the real firmware behind the "
                 f"pseudo-terminal {link.port}); the display's keys press its buttons")
        if options.board_commands and link.sim is not None:
            _read_commands(link.sim, self.out)
        return link

    async def _pump(self, board: BoardLink) -> None:
        async for event in board.events():
            await self._inbox.put(event)

    async def _watch_for_a_board(self) -> None:
        """Hot-plug: a controller plugged in while the simulated one runs (or none) takes over at once. A real
        controller that is unplugged is looked for by its own link, which resumes where it was on replugging."""
        from companion.link.discovery import find_boards

        while True:
            await asyncio.sleep(HOTPLUG_SCAN)
            board = self.board
            if self.options.board or (board is not None and board.sim is None):
                continue
            found = await asyncio.to_thread(find_boards)
            if found:
                await self._take_over(found[0].device)

    async def _take_over(self, device: str) -> None:
        old = self.board
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task
        if old is not None:
            await old.close()  # the simulated board stops first: one controller at a time
        link = await BoardLink().start()
        self.board = link
        self._pump_task = asyncio.create_task(self._pump(link), name="board-events")
        self.out(f"controller: a board was plugged in at {device}; it takes over"
                 + (" and the simulated board stops" if old is not None else ""))
        self._notice(TAKEN_OVER)

    def _notice(self, template: str) -> None:
        """A line for the display and the phones about the controller (not about any seat)."""
        if self.live is not None:
            self.live.note(True, None, template, template=template)

    async def _from_display(self, sid: int, data: dict[str, Any]) -> None:
        """The display's development keys: a simulated event, handled like the controller's own."""
        if self.live is None or sid != self.live.id:
            raise NotAllowed("the controller follows another game")
        await self._inbox.put(event_from_json(data))

    async def inject(self, event: BoardEvent) -> None:
        """Hand the router an event as if the controller had sent it."""
        await self._inbox.put(event)

    async def _work(self) -> None:
        while True:
            event = await self._inbox.get()
            try:
                await self._handle(event)
            except Exception as exc:  # one bad event must not stop the controller
                self.errors.append(f"{event.describe()}: {exc!r}")
                print(f"companion: {event.describe()} failed: {exc!r}", file=sys.stderr, flush=True)

    async def _handle(self, event: BoardEvent) -> None:
        if event.kind == "connected":
            self.out(f"controller: board {event.board_id} connected")
            self._lamps = None
            self._lights_dirty.set()
            if self._board_lost:
                self._board_lost = False
                self._notice(BACK)
            return
        if event.kind == "disconnected":
            self.out(f"controller: board {event.board_id} disconnected" + (f" ({event.reason})" if event.reason
                                                                          else ""))
            board = self.board
            if board is not None and board.sim is None and event.board_id == board.board_id:
                self._board_lost = True
                self._notice(UNPLUGGED)
            return
        if event.kind == "hello":
            if event.reason:
                self.out(f"controller: {event.reason}")
            elif event.reader == 0:
                self.out("controller: no RC522 reader answers (check its wiring); buttons and keys work, taps do not")
            if event.cause and event.cause.startswith("error"):
                self.out(f"controller: the board restarted after an {event.cause}")
            return
        if self.hub is not None and self.hub.enrolling is not None and _enrolment_input(event):
            await self._enrol(self.hub.enrolling, event)
            return
        live, router = self.live, self.router
        if live is None or router is None:
            if event.kind in ("button", "key") and event.action in GESTURES:
                await self._answer(False, False)
            return
        # Under the session's lock the state cannot change while the router reads it.
        async with live.lock:
            if router.searches:
                decision = await asyncio.to_thread(router.decide, event)
            else:
                decision = await self._decide(router.decide, event)
        if decision is None:
            return
        ok = await self._carry_out(live, decision)
        # One turn of the loop first: a phone whose view could not go out at once (its socket's buffer full) has
        # its sender finish it before the beep and the lamps are worked out and written.
        await asyncio.sleep(0)
        self.handled += 1
        await self._answer(ok, isinstance(decision, Note))

    async def _enrol(self, game: str, event: BoardEvent) -> None:
        """A tap, OK, BACK or UNDO while the host page enrols a deck: a step of that enrolment, not a move."""
        from companion.store.enrolment import Enrolment

        hub = self.hub

        def step() -> tuple[Any, Any]:
            enrolment = Enrolment.resume(hub.store, game)
            if enrolment is None:
                return None, None
            if event.kind == "tag":
                return enrolment, enrolment.tap(event.uid or "")
            steps = {"back": enrolment.skip, "undo": enrolment.undo, "ok": enrolment.reassign}
            return enrolment, steps[event.key or "ok"]()

        async with hub.enrolling_lock:
            enrolment, said = await asyncio.to_thread(step)
            if enrolment is None or enrolment.done:
                hub.enrolling = None
        if enrolment is None:
            return
        board = self.board
        wrote = said.ok and said.kind in ("enrolled", "already", "moved") and enrolment.write and board is not None
        if wrote and board is not None and not await board.write_tag(enrolment.steps[-1]["card"]):
            self.out("controller: " + said.text + "; writing the card id onto the tag failed")
        self.handled += 1
        await self._answer(said.ok, False)
        message = '{"type":"enrolment"}'  # the host page asks how it stands (it is the host's to see)
        for live in list(hub.sessions.values()):
            for connection in list(live.connections):
                if connection.viewer is None:
                    connection.offer("enrolment", message)

    async def _carry_out(self, live: Any, decision: Decision) -> bool:
        if isinstance(decision, Act):
            outcome = await live.submit(decision.action, decision.actor, decision.state_id, "board")
            return outcome.ok
        if isinstance(decision, Undo):
            outcome = await live.undo(decision.actor, decision.state_id, "board")
            return outcome.ok
        if isinstance(decision, Note):
            live.note(True, decision.seat, decision.text, template=decision.template, params=decision.params)
            return True
        assert isinstance(decision, Refuse)
        live.note(False, decision.seat, decision.reason, template=decision.template, params=decision.params,
                  public=decision.public)
        return False

    async def _answer(self, ok: bool, note: bool) -> None:
        """A beep for every input; a green or red flash too for every accepted or refused move."""
        board = self.board
        if board is None or not board.connected:
            return
        if note:
            await board.beep("tap")
            return
        seats, strip = self._lamps or ([DARK] * SEAT_LAMPS, DARK)
        # The lamps go with the flash: the last LED command is what a board that restarts gets back.
        await board.set_leds(seats=seats, strip=strip, flash="accept" if ok else "reject")
        await board.beep("ok" if ok else "error")

    async def _lights(self) -> None:
        while True:
            await self._lights_dirty.wait()
            self._lights_dirty.clear()
            live, board = self.live, self.board
            if live is None or board is None or not board.connected:
                continue
            await live.after_views()  # the lamps follow the phones' and the display's views, not compete with them
            wanted = await asyncio.to_thread(lamps, live.session, board.protocol.info.get("budget_ma"))
            if wanted != self._lamps:
                self._lamps = wanted
                await board.set_leds(seats=wanted[0], strip=wanted[1])


def _enrolment_input(event: BoardEvent) -> bool:
    """What an enrolment takes from the controller: a tag laid on the reader, OK, BACK and UNDO."""
    if event.kind == "tag":
        return bool(event.present and event.uid)
    return event.kind == "key" and event.action == "press" and event.key in ("ok", "back", "undo")


def level_word(tr: Callable[..., str], level: str) -> str:
    """A bot level in the table's language."""
    words = {"easy": tr("easy"), "normal": tr("normal"), "strong": tr("strong")}
    return words.get(level, level)


class _Server(uvicorn.Server):
    """uvicorn's server without its own signal handling: the table stops the board and the display as well."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _read_commands(sim: Any, out: Callable[[str], None]) -> None:
    """Type the simulated board's commands (seat N, long N, key K, tag UID, help) on the terminal."""

    def run() -> None:
        out("controller: type board commands here (help lists them)")
        for line in sys.stdin:
            try:
                shown = sim.run_command(line)
            except (ValueError, OSError) as exc:
                out(f"controller: {exc}")
                continue
            if shown:
                out(shown)

    threading.Thread(target=run, name="board-commands", daemon=True).start()
