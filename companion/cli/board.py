"""Subcommands for the controller: board sim|list|monitor, firmware deploy, tags enroll."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.errors import BadConfig, CompanionError
from companion.link import firmware
from companion.link.board import BoardLink
from companion.link.discovery import find_boards
from companion.link.events import BoardEvent
from companion.link.sim import COMMANDS, SimulatedBoard
from companion.store.enrolment import WRITE_FAILED


def register(sub: Any) -> None:
    board = sub.add_parser("board", help="the controller: simulate one, list them, watch one's events")
    board_sub = board.add_subparsers(dest="board_command", metavar="ACTION", required=True)

    p = board_sub.add_parser(
        "sim",
        help="run a simulated board behind a pseudo-terminal, driven by keyboard or script",
        description="Commands (from the keyboard, one a line, or from --script):\n" + COMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--script", type=Path, help="a file of commands to run (see the list above)")
    p.add_argument("--board-id", default="sim-0001", help="the id the board reports in its hello")
    p.add_argument("--monitor", action="store_true", help="also connect to it here and print its events")
    p.add_argument("--exit", action="store_true", help="stop after the script instead of reading the keyboard")
    p.set_defaults(func=cmd_sim)

    p = board_sub.add_parser("list", help="list plugged-in controllers (USB 2E8A:0005)")
    p.set_defaults(func=cmd_list)

    p = board_sub.add_parser("monitor", help="show a board's events live")
    _link_arguments(p)
    p.add_argument("--count", type=int, help="stop after this many button, key and tag events")
    p.add_argument("--seconds", type=float, help="stop after this long")
    p.set_defaults(func=cmd_monitor)

    fw = sub.add_parser("firmware", help="the controller's firmware")
    fw_sub = fw.add_subparsers(dest="firmware_command", metavar="ACTION", required=True)
    p = fw_sub.add_parser("deploy", help="copy the firmware to a Pico with mpremote")
    p.add_argument("--port", help="the Pico's serial port (default: the only plugged-in board)")
    p.add_argument("--serial", help="pick the board with this USB serial number")
    p.add_argument("--compile", action="store_true", help="precompile the modules with mpy-cross (faster start-up)")
    p.add_argument("--mpremote", default="mpremote", help="the mpremote command (pip install mpremote)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote commands instead of running them")
    p.set_defaults(func=cmd_deploy)

    tags = sub.add_parser("tags", help="NFC tags on physical cards")
    tags_sub = tags.add_subparsers(dest="tags_command", metavar="ACTION", required=True)
    p = tags_sub.add_parser("enroll", help="tag each card of a game in turn: the UID is stored with the card")
    p.add_argument("game", help="game name (see `companion games`)")
    _link_arguments(p)
    p.add_argument("--db", help="the SQLite file (default: the companion's data file)")
    p.add_argument("--write", action="store_true", help="also write the card id into the tag's memory")
    p.add_argument("--all", action="store_true", help="ask for cards already enrolled too")
    p.add_argument("--cards", help="only these card ids, comma-separated")
    p.add_argument("--restart", action="store_true", help="start again instead of resuming an interrupted enrolment")
    p.set_defaults(func=cmd_enroll)

    hw = sub.add_parser("hardware", help="the controller's circuit")
    hw_sub = hw.add_subparsers(dest="hardware_command", metavar="ACTION", required=True)
    p = hw_sub.add_parser("check", help="run the circuit's ERC and write its netlist, BOM (CSV) and schematic (SVG)")
    p.add_argument("--out", type=Path, help="where to write them (default: hardware/)")
    p.set_defaults(func=cmd_hardware_check)

    p = tags_sub.add_parser("list", help="list the enrolled tags of a game")
    p.add_argument("game")
    p.add_argument("--db", help="the SQLite file (default: the companion's data file)")
    p.set_defaults(func=cmd_tags_list)


def cmd_hardware_check(args: argparse.Namespace) -> int:
    from companion.hardware import check

    return check.main(args.out or check.OUT_DIR)


def _link_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", help="the board's serial port (default: find it by USB id)")
    parser.add_argument("--serial", help="pick the board with this USB serial number")
    parser.add_argument("--sim", action="store_true", help="use a simulated board; type its commands on stdin")


# -- board sim -----------------------------------------------------------------------------------------
def cmd_sim(args: argparse.Namespace) -> int:
    sim = SimulatedBoard(board_id=args.board_id, on_output=lambda text: print(f"  [{text}]", flush=True))
    path = sim.start()
    print(f"simulated board {args.board_id} at {path}", flush=True)
    print(f"watch it with: companion board monitor --port {path}   (type `help` for commands)", flush=True)
    monitor: threading.Thread | None = None
    stop = threading.Event()
    if args.monitor:
        connected = threading.Event()
        monitor = threading.Thread(target=_monitor_thread, args=(path, stop, connected), daemon=True)
        monitor.start()
        connected.wait(10)  # what the board says before the monitor's first sync is not for anyone
    try:
        if args.script:
            for number, line in enumerate(args.script.read_text().splitlines(), 1):
                _sim_line(sim, line, f"{args.script}:{number}")
            time.sleep(0.3)  # let the last events reach a monitor
        if not args.exit:
            for line in sys.stdin:
                if line.strip().lower() in ("quit", "exit"):
                    break
                _sim_line(sim, line, "stdin")
    finally:
        stop.set()
        if monitor is not None:
            monitor.join(timeout=2)
        sim.stop()
    return 0


def _sim_line(sim: SimulatedBoard, line: str, where: str) -> None:
    try:
        text = sim.run_command(line)
    except (ValueError, IndexError) as exc:
        print(f"{where}: {exc}", file=sys.stderr, flush=True)
        return
    if text:
        print(text, flush=True)


def _monitor_thread(path: str, stop: threading.Event, connected: threading.Event) -> None:
    async def watch() -> None:
        async with BoardLink(port=path) as link:

            async def printer() -> None:
                async for event in link.events():
                    print(f"  event: {event.describe()}", flush=True)
                    if event.kind == "snapshot":
                        connected.set()

            task = asyncio.create_task(printer())
            while not stop.is_set():
                await asyncio.sleep(0.05)
            task.cancel()

    asyncio.run(watch())


# -- board list / monitor ------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    boards = find_boards()
    if not boards:
        print("no controller plugged in (looking for USB 2E8A:0005, a Pico running MicroPython)")
        return 1
    for board in boards:
        print(f"{board.device}\tserial {board.serial_number or '?'}\t{board.description}")
    return 0


def _open_link(args: argparse.Namespace) -> BoardLink:
    if args.sim:
        return BoardLink.simulated()
    if args.port is None and not find_boards(args.serial):
        raise CompanionError("no controller plugged in; give --port, or --sim for a simulated board")
    return BoardLink(args.port, args.serial)


def _feed_sim_from_stdin(link: BoardLink) -> None:
    """With --sim, lines typed on stdin drive the simulated board (tag UID, seat 3, ...)."""
    sim = link.sim

    def pump() -> None:
        for line in sys.stdin:
            _sim_line(sim, line, "stdin")

    threading.Thread(target=pump, daemon=True).start()


def cmd_monitor(args: argparse.Namespace) -> int:
    return asyncio.run(monitor(_open_link(args), args.count, args.seconds, print, stdin=args.sim))


async def monitor(
    link: BoardLink,
    count: int | None = None,
    seconds: float | None = None,
    out: Callable[[str], Any] = print,
    stdin: bool = False,
) -> int:
    seen = 0
    started = time.monotonic()
    async with link:
        if stdin and link.sim is not None:
            _feed_sim_from_stdin(link)
        out(f"watching {link.port or 'the first board found'} (Ctrl-C stops)")

        async def run() -> None:
            nonlocal seen
            async for event in link.events():
                out(f"{time.monotonic() - started:9.3f}  {event.describe()}")
                if event.kind in ("button", "key", "tag"):
                    seen += 1
                    if count is not None and seen >= count:
                        return

        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(run(), seconds)
    return 0


# -- firmware deploy -----------------------------------------------------------------------------------
def deploy_commands(port: str, mpremote: str, staged: dict[str, Path]) -> list[list[str]]:
    """The mpremote invocations that put `staged` (board path -> local file) on the Pico and restart it."""
    base = [mpremote, "connect", port]
    commands = [[*base, "fs", "rm", "-r", ":tablectl"], [*base, "fs", "mkdir", ":tablectl"]]
    for remote, local in staged.items():
        commands.append([*base, "fs", "cp", str(local), f":{remote}"])
    commands.append([*base, "reset"])
    return commands


def stage_firmware(compile_modules: bool, workdir: Path, mpy_cross: str | None = None) -> dict[str, Path]:
    """Board path -> local file for every firmware file, compiled to .mpy if asked (main.py stays source)."""
    staged: dict[str, Path] = {}
    for path in firmware.files():
        if path.name == "main.py":
            staged["main.py"] = path
        elif compile_modules:
            target = workdir / (path.stem + ".mpy")
            command = [mpy_cross] if mpy_cross else [sys.executable, "-m", "mpy_cross"]
            result = subprocess.run([*command, "-o", str(target), str(path)], capture_output=True, text=True)
            if result.returncode:
                raise CompanionError(f"mpy-cross failed on {path.name}: {result.stderr.strip()}")
            staged[f"tablectl/{target.name}"] = target
        else:
            staged[f"tablectl/{path.name}"] = path
    return staged


def request_safe_mode(port: str, wait: float = 2.5) -> bool:
    """Ask a running firmware to restart into safe mode (it ignores Ctrl-C, which mpremote relies on)."""
    import serial

    from companion.link.protocol import _frame

    try:
        with serial.Serial(port, 115200, timeout=0.2, write_timeout=1) as link:
            link.write(_frame.encode(-1, "safe", "{}"))
            link.flush()
    except (serial.SerialException, OSError):
        return False  # no firmware answering there (a fresh Pico): mpremote gets in directly
    time.sleep(wait)
    return True


def cmd_deploy(args: argparse.Namespace) -> int:
    port = args.port
    if port is None:
        boards = find_boards(args.serial)
        if len(boards) != 1:
            found = ", ".join(b.device for b in boards) or "none"
            raise CompanionError(f"give --port: one Pico is needed, found {found}")
        port = boards[0].device
    if not args.dry_run and shutil.which(args.mpremote) is None:
        raise CompanionError(f"{args.mpremote} not found: pip install mpremote")
    if args.dry_run:
        print(f"(would send a `safe` frame to {port}: a running firmware restarts into safe mode for mpremote)")
    else:
        request_safe_mode(port)
    with tempfile.TemporaryDirectory() as tmp:
        staged = stage_firmware(args.compile, Path(tmp))
        for i, command in enumerate(deploy_commands(port, args.mpremote, staged)):
            print(" ".join(command), flush=True)
            if args.dry_run:
                continue
            result = subprocess.run(command)
            if result.returncode and i > 0:  # the first removes an old copy that may not exist
                raise CompanionError(f"mpremote failed: {' '.join(command)}")
    print("deployed; the board restarts with the new firmware" if not args.dry_run else "(dry run)")
    return 0


# -- tags enroll -----------------------------------------------------------------------------------
async def enroll(link: BoardLink, enrolment: Any, out: Callable[[str], Any] = print, write: bool = False) -> int:
    """Walk `enrolment` (companion/store/enrolment.py) with the controller: each card is named with the progress,
    a tag placed on the reader is its tag, OK moves a tag that is another card's to this one, BACK skips the card,
    UNDO takes back the last step. Returns how many tags were enrolled in this sitting."""
    before = enrolment.finished().params["enrolled"]
    events = link.events()
    try:
        await link.wait_connected(10)
        out(_line(enrolment.prompt()))
        while not enrolment.done:
            event = await _next_input(events)
            if event.kind == "tag":
                said = enrolment.tap(event.uid)
            elif event.key == "back":
                said = enrolment.skip()
            elif event.key == "undo":
                said = enrolment.undo()
            else:
                said = enrolment.reassign()
            if said.ok and said.kind in ("enrolled", "already", "moved") and (write or enrolment.write):
                card = enrolment.steps[-1]["card"]
                if not await link.write_tag(card):
                    out("  " + WRITE_FAILED.format(card=enrolment.label(card)))
            await link.set_leds(flash="accept" if said.ok else "reject")
            await link.beep("ok" if said.ok else "error")
            out(("  " if said.ok else "  refused: ") + said.text)
            out(_line(enrolment.prompt()))
    finally:
        await events.aclose()
    return enrolment.finished().params["enrolled"] - before


def _line(said: Any) -> str:
    return said.text if said.kind == "finished" else f"{said.text}: put it on the reader (BACK skips, UNDO takes back)"


async def _next_input(events: Any) -> BoardEvent:
    """The next tag placed on the reader, or OK, BACK or UNDO pressed."""
    while True:
        event = await anext(events)
        if event.kind == "tag" and event.present and event.uid:
            return event
        if event.kind == "key" and event.action == "press" and event.key in ("ok", "back", "undo"):
            return event


def cmd_enroll(args: argparse.Namespace) -> int:
    from companion.core.registry import get_game
    from companion.store import Store
    from companion.store.enrolment import Enrolment

    game = get_game(args.game)
    cards = list(game.cards())
    if not cards:
        raise BadConfig(f"{args.game} has no physical cards to tag")
    wanted: list[str] | None = None
    if args.cards:
        wanted = [c.strip() for c in args.cards.split(",") if c.strip()]
        unknown = [c for c in wanted if c not in cards]
        if unknown:
            raise BadConfig(f"{args.game} has no card {', '.join(unknown)}")
    elif args.all:
        wanted = cards
    store = Store(args.db) if args.db else Store.default()
    restart = args.restart or wanted is not None
    before = None if restart else Enrolment.resume(store, game.name)
    enrolment = Enrolment.start(store, game.name, wanted, write=args.write, restart=restart)
    if before is not None:
        print(f"resuming the enrolment of {game.title}: {len(enrolment.steps)} of {len(enrolment.cards)} cards "
              "asked for already (--restart starts again)")
    if enrolment.done:
        print(f"every {args.game} card already has a tag (use --all to go again)" if not enrolment.cards
              else enrolment.finished().text)
        enrolment.stop()
        return 0
    link = _open_link(args)

    async def run() -> int:
        async with link:
            if args.sim:
                _feed_sim_from_stdin(link)
            return await enroll(link, enrolment, print, args.write)

    count = asyncio.run(run())
    if enrolment.done:
        enrolment.stop()  # finished: the next run starts with the cards still without a tag
    print(f"enrolled {count} tag(s) for {args.game}")
    return 0


def cmd_tags_list(args: argparse.Namespace) -> int:
    from companion.core.registry import get_game
    from companion.store import Store

    game = get_game(args.game)
    store = Store(args.db) if args.db else Store.default()
    for uid, card in store.tags(args.game).items():
        print(f"{uid}\t{card}\t{game.card_label(card)}")
    return 0
