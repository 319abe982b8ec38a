"""Subcommands of the table display: `snapshot` (random play rendered headless to a PNG) and `display` (a window)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.core.errors import BadConfig


def register(sub: Any) -> None:
    p = sub.add_parser(
        "snapshot",
        help="play K random steps in memory and save the table display as a PNG",
        description="Plays random legal actions from the seed and renders the public table headless: for docs, "
        "bug reports and tests. Without --steps the game is played to the end (the summary screen).",
    )
    p.add_argument("game", help="game name (see `companion games`)")
    p.add_argument("--players", "-p", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--steps", type=int, default=None, help="random actions to play (default: to the end)")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT, e.g. 1920x1080, 1280x720, 800x480")
    p.add_argument("--mode", choices=("digital", "physical"), default="digital")
    p.add_argument("--set", action="append", metavar="OPTION=VALUE", help="a rules option (repeatable)")
    p.add_argument("--lang", help="language of the display's text")
    p.add_argument("--western-digits", action="store_true", help="write numbers with 0-9 in any language")
    p.add_argument("--out", required=True, help="the PNG file to write")
    p.set_defaults(func=cmd_snapshot)

    p = sub.add_parser(
        "display",
        help="show a session's public table in a window (the table display)",
        description="Connects to a running server's public WebSocket and draws the table. With --host-token the "
        "display also shows the join QR codes and lets the host act by touch or with the development keys.",
    )
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the server's base URL")
    p.add_argument("--session", type=int, required=True, help="the session id")
    p.add_argument("--host-token", help="the host's token (join codes, host choices, undo)")
    p.add_argument("--size", default="1280x720", help="window size WIDTHxHEIGHT")
    p.add_argument("--fullscreen", action="store_true")
    p.add_argument("--lang", help="language of the display's text (default $COMPANION_LANG, else English)")
    p.add_argument("--western-digits", action="store_true",
                   help="write numbers with 0-9 even where the language has its own digits")
    p.set_defaults(func=cmd_display)


def _size(text: str) -> tuple[int, int]:
    from display.render.layout import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise BadConfig(str(exc)) from None


def cmd_snapshot(args: argparse.Namespace) -> int:
    from display.app import headless

    headless()
    import pygame

    from companion.cli.sessions import parse_sets
    from display.app import render_image
    from display.i18n import set_language
    from display.offline import play

    size = _size(args.size)
    if args.lang:
        set_language(args.lang, args.western_digits)
    model = play(args.game, args.players, args.seed, args.steps, mode=args.mode, options=parse_sets(args.set))
    surface, screen = render_image(model, size)
    pygame.image.save(surface, args.out)
    env = model.envelope or {}
    print(f"{args.out}: {env.get('title')} {args.players}p seed {args.seed}, state {env.get('state_id')}, "
          f"{'over' if model.over else 'in play'}, {size[0]}x{size[1]}")
    for overflow in screen.painter.overflows:
        print(f"warning: text did not fit: {overflow.text!r} in {overflow.rect}")
    return 0


def cmd_display(args: argparse.Namespace) -> int:
    from display.app import run_display

    run_display(args.url, args.session, host_token=args.host_token, size=_size(args.size),
                fullscreen=args.fullscreen, lang=args.lang, western_digits=args.western_digits or None)
    return 0
