"""Paired Shifting Stones runs: a policy against another in one chair (two `normal` bots in the others), same seeds.

Each seed is played twice, once with the candidate and once with the reference in the chair (rotated with the
seed), so the two games only differ from the candidate's first different move on; the difference of the chair's win
shares is reported with its 95% interval (1.96 standard errors), as docs/bots.md quotes the experiments. Every
bot decides from its seat's canonical information set. Example (about a minute per 100 seeds on a quiet core):
`python bench/paired_stones.py hand greedy --games 1000 --seed 90000`; `turns` is the strong level's turn search
at the default budget (about 5 s a game), `turns-fast` at 0.15 s.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable

from companion.bots import Budget, make_bot
from companion.bots.base import PolicyBot
from companion.bots.shifting_stones import HandPlanner, MajorityPlanner, TurnSearcher
from companion.core.game import Bot
from companion.core.registry import get_game
from companion.core.seats import TABLE, Seat
from companion.games.shifting_stones.bots import GreedyBot

PLAYERS = 3
POLICIES: dict[str, Callable[[], Bot]] = {
    "greedy": lambda: PolicyBot(GreedyBot()),
    "majority": lambda: PolicyBot(MajorityPlanner()),
    "hand": lambda: PolicyBot(HandPlanner()),
    "normal": lambda: make_bot("shifting_stones", "normal"),
    "strong": lambda: make_bot("shifting_stones", "strong"),
    "turns": lambda: TurnSearcher(Budget(0.9)),
    "turns-fast": lambda: TurnSearcher(Budget(0.15)),
}


def chair_share(seed: int, chair: int, bot: Bot) -> float:
    """The chair's win share in one game of `bot` against two `normal` bots (shared wins split)."""
    game = get_game("shifting_stones")
    bots: dict[int, Bot] = {s: POLICIES["normal"]() for s in range(PLAYERS)}
    bots[chair] = bot
    rng = random.Random(f"playout:{seed}")
    state = game.setup(game.make_config(PLAYERS, "digital", None, None), random.Random(seed))
    while not game.is_over(state):
        seats: list[Seat] = [s for s in game.current_seats(state) if game.legal_actions(state, s)]
        seat: Seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        action = rng.choice(legal) if seat == TABLE else bots[int(seat)].choose(game, state, seat, legal, rng)
        assert action is not None and action in legal, f"seed {seed}: {action} is not legal"
        state = game.apply(state, action)[0]
    winners = game.scores(state)["winners"]
    return 1.0 / len(winners) if chair in winners else 0.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("candidate", choices=sorted(POLICIES))
    parser.add_argument("reference", choices=sorted(POLICIES))
    parser.add_argument("--games", type=int, default=300, help="seeds (each played twice)")
    parser.add_argument("--seed", type=int, default=90000, help="the first seed")
    parser.add_argument("--every", type=int, default=0, help="print the running shares every N seeds (stderr)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    diffs: list[float] = []
    shares = [0.0, 0.0]
    for g in range(args.games):
        seed, chair = args.seed + g, g % PLAYERS
        a = chair_share(seed, chair, POLICIES[args.candidate]())
        b = chair_share(seed, chair, POLICIES[args.reference]())
        shares[0] += a
        shares[1] += b
        diffs.append(a - b)
        if args.every and len(diffs) % args.every == 0:
            print(f"{len(diffs)} seeds: {shares[0] / len(diffs):.1%} against {shares[1] / len(diffs):.1%}",
                  file=sys.stderr, flush=True)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    print(f"{args.candidate} against {args.reference} in one chair, two normal bots, {n} seeds from {args.seed}: "
          f"{shares[0] / n:.1%} against {shares[1] / n:.1%}, difference {100 * mean:+.1f} ± "
          f"{196 * sd / math.sqrt(n):.1f} points of win share ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
