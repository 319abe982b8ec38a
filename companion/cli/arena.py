"""`companion arena`: bots play each other (seats rotated); win shares with 95% intervals and time per move."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.core.errors import BadConfig

from .sessions import parse_sets

DESCRIPTION = """\
companion arena GAME --players N --games K --seed S --bots strong,normal,normal,normal

Plays K games of GAME between the bots named (one per seat; levels easy, normal, strong, or a game's own
selfplay bot: heuristic or baseline for Power Grid, trader for Bohnanza, greedy for Shifting Stones, random).
Game g seats bot i in chair (i + g) mod N, so no bot profits from its chair. Every game is checked by the
playout harness (an illegal move stops the arena with an error). Prints each bot's win share (a shared win
counts as a fraction) with its 95% Wilson interval, and its time per move: p50, p95, max."""


def register(sub: Any) -> None:
    p = sub.add_parser("arena", help="bots play each other; win shares with 95%% intervals, time per move",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", help="game name (see `companion games`)")
    p.add_argument("--players", "-p", type=int, required=True, help="number of players")
    p.add_argument("--games", "-k", type=int, default=20, help="games to play (default 20)")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed (game g uses seed + g)")
    p.add_argument("--bots", required=True, metavar="BOT,BOT,...", help="one bot per seat, comma-separated")
    p.add_argument("--mode", choices=("digital", "physical"), default="digital")
    p.add_argument("--set", action="append", metavar="OPTION=VALUE", help="a rules option (repeatable)")
    p.add_argument("--think", action="append", metavar="LEVEL=SECONDS",
                   help="thinking time per move of a level (default strong=0.9, normal=0.2)")
    p.add_argument("--no-check", action="store_true", help="skip the harness's checks (faster; for benchmarks only)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_arena)


def parse_think(pairs: list[str] | None) -> dict[str, float]:
    out: dict[str, float] = {}
    for key, value in parse_sets(pairs).items():
        try:
            seconds = float(value)
        except ValueError:
            raise BadConfig(f"--think {key} takes seconds, not {value!r}") from None
        if seconds < 0:
            raise BadConfig(f"--think {key} takes seconds of 0 or more, not {value!r}")
        out[key] = seconds
    return out


def cmd_arena(args: argparse.Namespace) -> int:
    from companion.bots.arena import arena

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) != args.players:
        raise BadConfig(f"--bots names {len(bots)} bots for {args.players} players")
    if args.games < 1:
        raise BadConfig("--games takes 1 or more")
    result = arena(args.game, args.players, args.games, args.seed, bots, mode=args.mode,
                   options=parse_sets(args.set), think=parse_think(args.think), check=not args.no_check)
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print("\n".join(result.lines()))
    return 0
