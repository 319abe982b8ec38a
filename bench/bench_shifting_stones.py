"""Bench of the Shifting Stones engine: selfplay games per second (4 random players) and hint latency (p50, p95).

A hint is everything a phone gets for one hand (`game.hints`): the fewest moves for each card and the best turn,
both exact. Positions are random grids with random hands of 4 and 6 cards (6 is the hand after a skip).

Run: .venv/bin/python bench/bench_shifting_stones.py [--games K] [--positions N] [--seed S]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import figures

from companion.core import get_game
from companion.games.shifting_stones.best_turn import search_nodes
from companion.games.shifting_stones.distance import forget, warm_up
from companion.games.shifting_stones.hints import advice
from companion.games.shifting_stones.patterns import CARD_IDS, PATTERNS, random_grid
from companion.testing.harness import selfplay


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def positions(game, size: int, count: int, seed: int) -> list:
    rng = random.Random(seed)
    base = game.setup(game.make_config(2), random.Random(seed))
    out = []
    for _ in range(count):
        hand = tuple(rng.sample(CARD_IDS, size))
        players = (dataclasses.replace(base.players[0], hand=hand), base.players[1])
        out.append(dataclasses.replace(base, players=players, grid=random_grid(rng)))
    return out


def hint_latency(game, size: int, count: int, seed: int, nodes: bool = True) -> dict[str, float]:
    """One line of the table; the figures of this hand size (wall-clock and CPU time, ms)."""
    states = positions(game, size, count, seed)
    times, cpu, exact = [], [], 0
    for state in states:
        started, cpu_started = time.perf_counter(), time.thread_time()
        hints = game.hints(state, 0)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - cpu_started) * 1000)
        exact += bool(hints["best_turn"]["exact"])
    # The same budget counted in this thread's CPU time: what a quiet machine gives, whatever the load now. An
    # exact answer above is cached; a hand cut short is searched again with the cards' caches emptied, as cold as
    # its first search on its new grid.
    exact_cpu = 0
    for state in states:
        forget()
        exact_cpu += bool(advice(state, 0, clock=time.thread_time)["best_turn"]["exact"])
    searched = [search_nodes(state.codes(), [PATTERNS[c] for c in state.players[0].hand]) for state in states] \
        if nodes else [0]
    print(
        f"{size:>4} {count:>9} {statistics.median(times):>8.1f} {percentile(times, 0.95):>8.1f} "
        f"{max(times):>8.1f} {percentile(cpu, 0.95):>8.1f} {max(cpu):>8.1f} {exact / len(states):>6.0%} "
        f"{exact_cpu / len(states):>6.0%} {statistics.median(searched):>10.0f} {max(searched):>9}"
    )
    return {"p50": statistics.median(times), "p95": percentile(times, 0.95), "max": max(times),
            "p95_cpu": percentile(cpu, 0.95), "max_cpu": max(cpu), "exact": exact / len(states),
            "exact_cpu_budget": exact_cpu / len(states)}


# One hint in a process that has computed none: every card's tables are built on the way, within the same budget.
_FRESH = """
import json, sys, time
sys.path.insert(0, {bench!r})
from bench_shifting_stones import positions
from companion.core import get_game
game = get_game("shifting_stones")
state = positions(game, {size}, 1, {seed})[0]
started, cpu_started = time.perf_counter(), time.thread_time()
hints = game.hints(state, 0)
print(json.dumps([(time.perf_counter() - started) * 1000, (time.thread_time() - cpu_started) * 1000,
                  hints["best_turn"]["exact"]]))
"""


def fresh_process(size: int, seed: int) -> tuple[float, float, bool]:
    """The first hint of a new process for a hand of `size` (wall ms, CPU ms, exact)."""
    code = _FRESH.format(bench=str(Path(__file__).resolve().parent), size=size, seed=seed)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    wall, cpu, exact = json.loads(out.splitlines()[-1])
    return wall, cpu, exact


def main() -> None:
    parser = argparse.ArgumentParser(description="Shifting Stones selfplay games/s and hint latency")
    parser.add_argument("--games", type=int, default=10, help="selfplay games per bot (default 10)")
    parser.add_argument("--positions", type=int, default=300, help="positions per hand size (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="add the figures under stable keys to this JSON file")
    args = parser.parse_args()
    game = get_game("shifting_stones")

    started = time.perf_counter()
    game.hints(positions(game, 6, 1, args.seed + 99)[0], 0)
    cold = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    warm_up()
    tables = (time.perf_counter() - started) * 1000

    print("Shifting Stones hint latency (one phone's hints: fewest moves per card + best turn), milliseconds")
    print(f"first hint in a fresh process {cold:.0f} ms; the rest of a hint worker's start (every card's swap "
          f"tables and tables of layouts, distance.warm_up) {tables:.0f} ms")
    print("(wall-clock time; cpu p95 and max are this thread's CPU time, which a busy machine disturbs less;")
    print(" exact: the share of hands whose best turn was searched to the end within the budget; cpu exact: the same")
    print(" with the budget counted in CPU time)")
    print(f"{'hand':>4} {'positions':>9} {'p50':>8} {'p95':>8} {'max':>8} {'cpu p95':>8} {'cpu max':>8} {'exact':>6} "
          f"{'cpu exact':>9} "
          f"{'nodes p50':>10} {'nodes max':>9}")
    out: dict[str, float] = {}
    worst = worst_cpu = 0.0
    for size in (4, 6, 8):
        found = hint_latency(game, size, args.positions, args.seed + size)
        out |= {f"shifting_stones.hint{size}_{k}_{'share' if k.startswith('exact') else 'ms'}": v
                for k, v in found.items()}
        worst, worst_cpu = max(worst, found["max"]), max(worst_cpu, found["max_cpu"])
    # Hands grown by skips: few positions each, every one bounded by the time budget.
    for size in (10, 20, 40, 68):
        found = hint_latency(game, size, max(4, args.positions // 30), args.seed + size, nodes=False)
        worst, worst_cpu = max(worst, found["max"]), max(worst_cpu, found["max_cpu"])
    print("first hint in a fresh process (its cards' tables built within the same budget):")
    for size in (8, 40, 68):
        wall, cpu, exact = fresh_process(size, args.seed + size)
        print(f"{size:>4} {'1':>9} {wall:>8.1f} {'':>8} {wall:>8.1f} {'':>8} {cpu:>8.1f} {exact:>6.0%}")
        worst, worst_cpu = max(worst, wall), max(worst_cpu, cpu)
    out["shifting_stones.hint_max_ms_any_hand"] = worst
    out["shifting_stones.hint_max_cpu_ms_any_hand"] = worst_cpu
    figures.write(args.json, out)

    print()
    print("Shifting Stones selfplay, 4 players, digital, no harness checks")
    print(f"{'bot':8} {'games':>5} {'finished':>8} {'actions/game':>12} {'seconds':>8} {'games/s':>8}")
    for bot in ("random", "greedy"):
        summary = selfplay(game, 4, args.games, args.seed, bot=bot)
        print(
            f"{bot:8} {args.games:>5} {summary.finished:>8} {summary.mean_actions:>12.0f} {summary.seconds:>8.2f} "
            f"{summary.games_per_second:>8.2f}"
        )
        for failure in summary.failures:
            print(f"  BROKEN {failure}")


if __name__ == "__main__":
    main()
