"""How much the Shifting Stones turn search can gain: its candidate turns judged by many rollouts (an oracle).

Plays games of the strong bot (a fixed 40 worlds a decision, so the run is reproducible) in one chair against two
`normal` bots, keeps every turn start where the search compares two or more turns, and plays each candidate turn
of every `--every`-th of them in `--worlds` sampled worlds (the same worlds for all, as the search does). The
first half of the worlds picks the best candidate of a family, the second half values it: the held-out gain over
the hand planner's turn, per decision, in the search's own units (0.8 × win share + 0.2 × squashed margin), is
what a perfect choice within that family could add. Families: the six weightings (`TURN_WEIGHTS`) with the skip,
and those with the sets of the hand's cards. docs/bots.md quotes a run: `python bench/oracle_stones.py --games 40
--seed 200 --worlds 200 --every 2` (about 10 minutes on one core).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from companion.bots import Budget, make_bot
from companion.bots import shifting_stones as stones
from companion.core.game import Bot
from companion.core.registry import get_game
from companion.core.seats import TABLE, Seat
from companion.games.shifting_stones.actions import SkipTurn
from companion.games.shifting_stones.state import StonesState

PLAYERS = 3
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
    """The searched turn starts of `games` games, the recorder in chair seed mod 3."""
    found: list[tuple[StonesState, int]] = []
    for s in range(seed, seed + games):
        recorder = _Recorder()
        bots: dict[int, Bot] = {c: make_bot("shifting_stones", "normal") for c in range(PLAYERS)}
        bots[s % PLAYERS] = recorder
        rng = random.Random(s)
        state = GAME.setup(GAME.make_config(PLAYERS, "digital", None, None), random.Random(s))
        while not GAME.is_over(state):
            seats: list[Seat] = [x for x in GAME.current_seats(state) if GAME.legal_actions(state, x)]
            seat: Seat = rng.choice(seats)
            legal = GAME.legal_actions(state, seat)
            action = rng.choice(legal) if seat == TABLE else bots[int(seat)].choose(GAME, state, seat, legal, rng)
            assert action is not None, f"seed {s}: no move for seat {seat}"
            state = GAME.apply(state, action)[0]
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
    gains = {"weightings": 0.0, "weightings + sets": 0.0}
    for k, (info, seat) in enumerate(chosen):
        turns, kinds = families(info, seat)
        rng = random.Random(k)
        rows = []
        for _ in range(args.worlds):
            world = GAME.indistinguishable(info, seat, rng)
            seed = rng.random()
            rows.append([searcher._rollout(GAME, world, seat, t, random.Random(seed)) for t in turns])
        for name, allowed in (("weightings", {"weightings"}), ("weightings + sets", {"weightings", "sets"})):
            pool = [i for i, kind in enumerate(kinds) if kind in allowed]
            best = max(pool, key=lambda i: sum(r[i] for r in rows[:half]))
            gains[name] += sum(r[best] - r[0] for r in rows[half:]) / (args.worlds - half)
    print(f"{len(chosen)} searched turn starts, {args.worlds} worlds each, {time.perf_counter() - began:.0f} s")
    for name, total in gains.items():
        print(f"held-out gain over the hand planner's turn, best of {name}: {total / max(1, len(chosen)):.4f} "
              "a decision")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
