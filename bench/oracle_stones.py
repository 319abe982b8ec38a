"""How much the Shifting Stones turn search can gain: its candidate turns judged by many rollouts (an oracle).

Plays games of the strong bot (a fixed 40 worlds a decision, so the run is reproducible) in one chair against two
`normal` bots, keeps every turn start where the search compares two or more turns, and plays each candidate turn
of every `--every`-th of them in `--worlds` sampled worlds (the same worlds for all, as the search does). The
first half of the worlds picks the best candidate of a family, the second half values it: the held-out gain over
the hand planner's turn, per decision, in the search's own units (0.8 × win share + 0.2 × squashed margin), is
what a perfect choice within that family could add; the search's own choice (its evidence rule on as many worlds
as its budget gives it, drawn from the first half, 20 draws) is valued the same way. Families: the six weightings
(`TURN_WEIGHTS`) with the skip, and those with the sets of the hand's cards. docs/bots.md quotes a run:
`python bench/oracle_stones.py --games 40 --seed 200 --worlds 200 --every 2` (about 7 minutes on one core).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from paired_stones import PLAYERS, chair_share

from companion.bots import Budget
from companion.bots import shifting_stones as stones
from companion.core.registry import get_game
from companion.games.shifting_stones.actions import SkipTurn
from companion.games.shifting_stones.state import StonesState

GAME = get_game("shifting_stones")


class _Recorder(stones.TurnSearcher):
    """The turn search, keeping each turn start it searches."""

    def __init__(self) -> None:
        super().__init__(Budget(iterations=40))
        self.seen: list[tuple[StonesState, int]] = []

    def _search(self, game: Any, info: StonesState, seat: int, turns: list[tuple[Any, ...]],
                rng: random.Random) -> int:
        self.seen.append((info, seat))
        return super()._search(game, info, seat, turns, rng)


def decisions(games: int, seed: int) -> list[tuple[StonesState, int]]:
    """The searched turn starts of `games` games (paired_stones' games), the recorder in chair seed mod 3."""
    found: list[tuple[StonesState, int]] = []
    for s in range(seed, seed + games):
        recorder = _Recorder()
        chair_share(s, s % PLAYERS, recorder)
        found += recorder.seen
    return found


def families(info: StonesState, seat: int) -> tuple[list[tuple[Any, ...]], list[str]]:
    """Every candidate turn with the family it comes from; the hand planner's turn first."""
    grid, hand = info.codes(), info.players[seat].hand
    turns: list[tuple[Any, ...]] = []
    kinds: list[str] = []

    def add(turn: tuple[Any, ...], kind: str) -> None:
        if turn not in turns:
            turns.append(turn)
            kinds.append(kind)

    for weights in stones.TURN_WEIGHTS:
        points, actions = stones._weighted_plan(grid, hand, seat, weights)
        add(actions if points > 0 else (), "weightings")
    if SkipTurn(seat) in GAME.legal_actions(info, seat):
        add((SkipTurn(seat),), "weightings")
    for members in stones._card_sets(len(hand)):
        points, actions = stones._set_plan(grid, hand, seat, members)
        if points > 0:
            add(actions, "sets")
    return turns, kinds


# The families compared, and the worlds the search gets for each within its budget: about 80 for the weightings'
# 2-3 turns, about 40 once the sets make them 4-6.
FAMILIES: dict[str, tuple[set[str], int]] = {
    "weightings": ({"weightings"}, 80),
    "weightings + sets": ({"weightings", "sets"}, 40),
}


def replay(rows: list[list[float]], pool: list[int], worlds: int, half: int, rng: random.Random) -> float:
    """The search's own choice (its evidence rule) among the `pool` of candidates (the hand planner's first) on
    `worlds` worlds drawn from the first half, valued on the second half: the gain over the hand planner's turn."""
    drawn = [rows[rng.randrange(half)] for _ in range(worlds)]
    best = pool[stones.evidence_choice([[r[i] for r in drawn] for i in pool])]
    return sum(r[best] - r[0] for r in rows[half:]) / (len(rows) - half)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--every", type=int, default=2)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    chosen = decisions(args.games, args.seed)[:: args.every]
    searcher = stones.TurnSearcher(Budget(iterations=1))
    half = args.worlds // 2
    gains = dict.fromkeys(FAMILIES, 0.0)
    chosen_gains = dict.fromkeys(FAMILIES, 0.0)
    for k, (info, seat) in enumerate(chosen):
        turns, kinds = families(info, seat)
        rng = random.Random(k)
        rows = []
        for _ in range(args.worlds):
            world = GAME.indistinguishable(info, seat, rng)
            seed = rng.random()
            rows.append([searcher._rollout(GAME, world, seat, t, random.Random(seed)) for t in turns])
        for name, (allowed, worlds) in FAMILIES.items():
            pool = [i for i, kind in enumerate(kinds) if kind in allowed]
            best = max(pool, key=lambda i: sum(r[i] for r in rows[:half]))
            gains[name] += sum(r[best] - r[0] for r in rows[half:]) / (args.worlds - half)
            draws = random.Random(k)
            chosen_gains[name] += sum(replay(rows, pool, worlds, half, draws) for _ in range(20)) / 20
    print(f"{len(chosen)} searched turn starts, {args.worlds} worlds each, {time.perf_counter() - began:.0f} s")
    for name, total in gains.items():
        print(f"held-out gain over the hand planner's turn, best of {name}: {total / max(1, len(chosen)):.4f} "
              "a decision")
    for name, total in chosen_gains.items():
        print(f"the search's choice among {name} at {FAMILIES[name][1]} worlds (its evidence rule): "
              f"{total / max(1, len(chosen)):.4f} a decision")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
