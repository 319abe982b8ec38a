"""The bot levels' goals, measured in the arena: win shares with 95% intervals and time per move for each line-up."""

from __future__ import annotations

import argparse
import json
import sys
import time

from companion.bots.arena import arena

# (game, players, line-up, goal: the first bot's least win share, games in a full run)
LINE_UPS: list[tuple[str, int, list[str], float, int]] = [
    ("power_grid", 4, ["normal", "baseline", "baseline", "baseline"], 0.40, 100),
    ("power_grid", 4, ["strong", "normal", "normal", "normal"], 0.45, 40),
    ("bohnanza", 4, ["strong", "normal", "normal", "normal"], 0.40, 40),
    ("shifting_stones", 3, ["strong", "normal", "normal"], 0.45, 600),
]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 games per line-up and a tenth of the thinking time "
                        "(checks the bench runs; the shares then mean nothing)")
    parser.add_argument("--games", type=int, help="games per line-up (default: each line-up's full count)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--only", help="only line-ups of this game")
    parser.add_argument("--json", action="store_true", help="print one JSON object per line-up")
    args = parser.parse_args(argv)
    for game, players, bots, goal, full in LINE_UPS:
        if args.only and args.only != game:
            continue
        games = 3 if args.quick else (args.games or full)
        think = {"strong": 0.09, "normal": 0.02} if args.quick else None
        started = time.perf_counter()
        result = arena(game, players, games, args.seed, bots, think=think, check=not args.quick)
        share = result.entries[0].share(games)
        low, high = result.entries[0].interval(games)
        met = "met" if low >= goal else ("not met" if high < goal else "not decided at this sample size")
        if args.json:
            print(json.dumps({**result.to_json(), "goal": goal, "goal_status": met}), flush=True)
            continue
        print("\n".join(result.lines()))
        print(f"  goal: {bots[0]} wins >= {goal:.0%} -> {share:.1%} [{low:.1%}, {high:.1%}]: {met} "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
