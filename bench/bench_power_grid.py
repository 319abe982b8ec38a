"""Power Grid benchmarks: selfplay games per second, the latency of each hint, and the firing solver's latency."""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Callable
from typing import Any

import figures

from companion.core import get_game
from companion.games.power_grid.data import MAPS, PLANTS
from companion.games.power_grid.firing import firings
from companion.games.power_grid.hints import build_plans, city_prices, clear_plan_cache, max_bids
from companion.games.power_grid.regions import valid_sets
from companion.games.power_grid.state import Holding, Player, PowerGridState
from companion.testing.harness import playout, selfplay

GAME = get_game("power_grid")


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return p50 * 1e3, p95 * 1e3, ordered[-1] * 1e3


def timed(fn: Callable[[], Any], repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def game_positions(map_id: str, games: int, seed: int) -> list[PowerGridState]:
    """States from heuristic 5-player games (5 regions): every building turn, first builds included."""
    bot = GAME.bots()["heuristic"]
    out = []
    for g in range(games):
        result = playout(GAME, 5, seed + g, options={"map": map_id}, bots={s: bot for s in range(5)}, check=False)
        state = GAME.setup(result.config, random.Random(seed + g))
        for action in result.actions:
            state, _ = GAME.apply(state, action)
            if state.phase == "building" and state.queue and not state.draws:
                out.append(state)
    return out


def synthetic_positions(map_id: str, count: int, seed: int) -> list[PowerGridState]:
    """Harder than play: scattered networks of 0-12 cities in 5 random regions, random houses of others."""
    rng = random.Random(seed)
    base = GAME.setup(GAME.make_config(5, options={"map": map_id}), random.Random(seed))
    out = []
    for _ in range(count):
        regions = rng.choice(valid_sets(map_id, 5))
        inside = list(MAPS[map_id].cities_in(regions))
        rng.shuffle(inside)
        mine = rng.choice((0, 0, 1, 2, 3, 5, 8, 12))
        others = inside[mine : mine + rng.randint(0, 14)]
        players = list(base.players)
        players[0] = Player(400, (), tuple(inside[:mine]))
        players[1] = Player(50, (), tuple(others[::2]))
        players[2] = Player(50, (), tuple(others[1::2]))
        step = rng.choice((1, 2, 3))
        out.append(
            dataclasses.replace(base, players=tuple(players), regions=regions, phase="building", step=step, queue=(0,))
        )
    return out


def bench_selfplay(games: int, seed: int) -> None:
    print("selfplay, 4 players, Germany, checks off")
    for bot, count in (("random", games), ("heuristic", max(2, games // 4))):
        summary = selfplay(GAME, 4, count, seed, bot=bot)
        assert not summary.failures, summary.failures
        print(
            f"  {bot:<10} {summary.games_per_second:7.2f} games/s   ({count} games, "
            f"{summary.mean_actions:.0f} actions per game)"
        )


def bench_hints(positions: list[PowerGridState], label: str) -> dict[str, float]:
    """Prints one table; returns the p95 (ms) of the cheapest k-sets, the max bid and the city prices."""
    build, prices, bids, empty = [], [], [], []
    for state in positions:
        seat = state.queue[0]
        # The plans are kept per network and slots (hints are asked for after every action); the bench times
        # the search itself, so the kept plans are forgotten before each run.
        t = timed(lambda state=state, seat=seat: (clear_plan_cache(), build_plans(state, seat)), repeat=3)
        build.append(t)
        if not state.players[seat].cities:
            empty.append(t)
        prices.append(timed(lambda state=state, seat=seat: city_prices(state, seat), repeat=3))
        bids.append(timed(lambda state=state, seat=seat: (clear_plan_cache(), max_bids(state, seat)), repeat=3))
    print(f"hints on {label} ({len(positions)} positions; ms p50 / p95 / max)")
    for name, samples in (
        ("1 city prices", prices),
        ("2 cheapest k-sets, k<=6", build),
        ("  ... first build only", empty),
        ("4 max bid (incl. 2)", bids),
    ):
        if samples:
            p50, p95, top = percentiles(samples)
            print(f"  {name:<26} {p50:7.2f} {p95:7.2f} {top:7.2f}")
    return {"ksets": percentiles(build)[1], "maxbid": percentiles(bids)[1], "prices": percentiles(prices)[1]}


def bench_firing(count: int, seed: int) -> None:
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        numbers = rng.sample(sorted(PLANTS), 3)
        holdings = []
        for n in numbers:
            plant = PLANTS[n]
            stock = [0, 0, 0, 0]
            for _ in range(rng.randint(0, plant.storage)):
                stock[rng.choice(plant.burns)] += 1
            holdings.append(Holding(n, (stock[0], stock[1], stock[2], stock[3])))
        market = (rng.randint(0, 24), rng.randint(0, 24), rng.randint(0, 24), rng.randint(0, 12))
        cities = rng.randint(1, 17)
        samples.append(timed(lambda h=tuple(holdings), m=market, c=cities: firings(h, c, m), repeat=3))
    p50, p95, top = percentiles(samples)
    print(f"3 bureaucracy solver ({count} random 3-plant holdings; ms p50 / p95 / max)")
    print(f"  {'all subsets and mixes':<26} {p50:7.2f} {p95:7.2f} {top:7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="random selfplay games (heuristic: a quarter)")
    parser.add_argument("--positions", type=int, default=3, help="heuristic games per map to take positions from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="add the figures under stable keys to this JSON file")
    args = parser.parse_args()
    bench_selfplay(args.games, args.seed)
    out: dict[str, float] = {}
    for map_id in ("germany", "usa"):
        play = bench_hints(game_positions(map_id, args.positions, args.seed),
                           f"{map_id}, 5 regions, positions from play")
        synthetic = bench_hints(synthetic_positions(map_id, 150, args.seed),
                                f"{map_id}, 5 regions, scattered synthetic positions")
        out[f"power_grid.ksets_synthetic_{map_id}_p95_ms"] = synthetic["ksets"]
        out[f"power_grid.ksets_play_{map_id}_p95_ms"] = play["ksets"]
        out[f"power_grid.maxbid_{map_id}_p95_ms"] = max(play["maxbid"], synthetic["maxbid"])
        out[f"power_grid.city_prices_{map_id}_p95_ms"] = max(play["prices"], synthetic["prices"])
    # The worst of both maps, as the goals are stated.
    out["power_grid.ksets_synthetic_p95_ms"] = max(out["power_grid.ksets_synthetic_germany_p95_ms"],
                                                  out["power_grid.ksets_synthetic_usa_p95_ms"])
    out["power_grid.maxbid_p95_ms"] = max(out["power_grid.maxbid_germany_p95_ms"], out["power_grid.maxbid_usa_p95_ms"])
    bench_firing(2000, args.seed)
    figures.write(args.json, out)


if __name__ == "__main__":
    main()
