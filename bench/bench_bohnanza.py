"""Bench of the Bohnanza engine: selfplay games per second with 5 players, for each bot, without the harness checks.

Run: .venv/bin/python bench/bench_bohnanza.py [--players N] [--games K] [--seed S]
"""

from __future__ import annotations

import argparse

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
    print(f"{'bot':8} {'games':>5} {'finished':>8} {'actions/game':>12} {'seconds':>8} {'games/s':>8} {'actions/s':>9}")
    for bot, default in GAMES.items():
        games = args.games or default
        summary = selfplay(game, args.players, games, args.seed, bot=bot)
        actions = summary.mean_actions * summary.finished
        print(
            f"{bot:8} {games:>5} {summary.finished:>8} {summary.mean_actions:>12.0f} {summary.seconds:>8.2f} "
            f"{summary.games_per_second:>8.2f} {actions / summary.seconds:>9.0f}"
        )
        for failure in summary.failures:
            print(f"  BROKEN {failure}")


if __name__ == "__main__":
    main()
