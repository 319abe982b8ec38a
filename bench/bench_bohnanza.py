"""Bench of the Bohnanza engine: selfplay games per second with 5 players, for each bot, without the harness checks.

Run: .venv/bin/python bench/bench_bohnanza.py [--players N] [--games K] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from companion.core import get_game
from companion.testing.harness import selfplay

# Random play makes every offer the rules allow (20 a turn by default), so its games are several times longer.
GAMES = {"random": 10, "trader": 40}


def main() -> None:
    parser = argparse.ArgumentParser(description="Bohnanza selfplay games per second, for each bot")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, help="games per bot (default: random 10, trader 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("bohnanza")
    print(f"Bohnanza selfplay, {args.players} players, default options, digital deck")
    # CPU seconds too: on a busy machine the wall clock says more about the neighbours than about the engine.
    print(f"{'bot':8} {'games':>5} {'finished':>8} {'actions/game':>12} {'wall s':>7} {'games/s':>8} {'cpu s':>7} "
          f"{'games/cpu s':>11} {'actions/cpu s':>13}")
    for bot, default in GAMES.items():
        games = args.games or default
        cpu = time.process_time()
        summary = selfplay(game, args.players, games, args.seed, bot=bot)
        cpu = time.process_time() - cpu
        actions = summary.mean_actions * summary.finished
        print(
            f"{bot:8} {games:>5} {summary.finished:>8} {summary.mean_actions:>12.0f} {summary.seconds:>7.2f} "
            f"{summary.games_per_second:>8.2f} {cpu:>7.2f} {games / cpu:>11.2f} {actions / cpu:>13.0f}"
        )
        for failure in summary.failures:
            print(f"  BROKEN {failure}")


if __name__ == "__main__":
    main()
