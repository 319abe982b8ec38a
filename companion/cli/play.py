"""`companion play`: the whole table (server, controller, input router, lights, display) for a new or resumed game."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from companion.store.db import default_path
from companion.web.network import add_arguments as add_network_arguments

from .serve import DEFAULT_PORT
from .sessions import add_bot_argument, add_db_argument, parse_bots, parse_chance, parse_sets

DESCRIPTION = """\
companion play               resume the open game played last; with none, the lobby (choose a game on the host page)
companion play GAME [-p N]   resume the open GAME (same player count), or start a new one (--new: always new)
companion play ID            play stored game ID

Starts the server (phones, host page), the controller (a plugged-in board, else the simulated one), the input
router and the table display (restarted if it dies; skipped when there is no screen), then prints the host link
and each seat's join link. After a crash or a power cut, the same command resumes the game where it was."""


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="start the table: server, controller, display; resumes the open game",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", metavar="GAME|ID",
                   help="a game name (see `companion games`) or a stored game's id; none: the open game, or the lobby")
    p.add_argument("--players", "-p", type=int, help="number of players (a new game; default 4, or the game's limit)")
    p.add_argument("--mode", choices=("digital", "physical"),
                   help="digital: the companion shuffles and deals; physical: the real cards are tapped (default "
                   "digital)")
    p.add_argument("--seed", type=int, help="seed for the digital shuffles (a new game)")
    p.add_argument("--set", action="append", metavar="OPTION=VALUE", help="a rules option (repeatable)")
    p.add_argument("--chance", action="append", metavar="EVENT=MODE",
                   help="a chance event in another mode than --mode, e.g. plant_draw=physical")
    p.add_argument("--names", nargs="+", help="player names in seat order (a new game)")
    add_bot_argument(p)
    p.add_argument("--new", action="store_true", help="start a new game even if one of GAME is open")
    add_network_arguments(p)
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDRESS",
                   help="the address to listen on (default 0.0.0.0: every interface of this machine)")
    p.add_argument("--base-url", metavar="URL",
                   help="the address phones open, e.g. http://192.168.1.20:8765 (default: this machine's LAN address)")
    p.add_argument("--token", help="the server token for the host lobby (default: a new random one each run)")
    p.add_argument("--board", metavar="PORT", help="the controller's serial port (default: found by USB id)")
    p.add_argument("--no-sim", action="store_true",
                   help="without a plugged-in controller, run without one instead of the simulated board")
    p.add_argument("--board-commands", action="store_true",
                   help="read the simulated board's commands (seat N, long N, key K, tag UID...) from the terminal")
    p.add_argument("--no-display", action="store_true", help="do not start the table display")
    p.add_argument("--fullscreen", action="store_true", help="the display fills the screen (the kiosk)")
    p.add_argument("--size", default="1280x720", metavar="WxH", help="the display's window size (default 1280x720)")
    p.add_argument("--lang", help="the table's language: the display and the lines printed here (default "
                   "$COMPANION_LANG, else English); each phone chooses its own")
    p.add_argument("--western-digits", action="store_true",
                   help="the display writes numbers with 0-9 even where the language has its own digits")
    add_db_argument(p)
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    from companion.play.runner import PlayOptions, Table

    # The display runs as a child process: the language reaches it (and the printed lines) through the environment.
    if args.lang:
        os.environ["COMPANION_LANG"] = args.lang
    if args.western_digits:
        os.environ["COMPANION_DIGITS"] = "latn"

    options = PlayOptions(
        db_path=Path(args.db) if args.db else default_path(),
        game=args.game,
        players=args.players,
        mode=args.mode,
        seed=args.seed,
        options=parse_sets(args.set),
        chance=parse_chance(args.chance),  # type: ignore[arg-type]
        names=args.names,
        bots=parse_bots(args.bot, args.players),
        new=args.new,
        bind=args.bind,
        port=args.port,
        base_url=args.base_url,
        server_token=args.token,
        board=args.board,
        simulate=not args.no_sim,
        board_commands=args.board_commands or (sys.stdin.isatty() and not args.board),
        display=not args.no_display,
        fullscreen=args.fullscreen,
        size=args.size,
        wifi=args.wifi,
        mdns=not args.no_mdns,
    )
    return asyncio.run(Table(options).run())
