"""Bot against bot: games with seats rotated, every game checked by the playout harness, win shares and move times."""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.bots import BUDGETS, Budget, named_bot
from companion.core.actions import Action
from companion.core.game import Bot, Game, Mode
from companion.core.registry import get_game
from companion.core.seats import Seat
from companion.testing.harness import playout


class TimedBot:
    """Wraps a bot and records how long each of its decisions took."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(
        self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        start = time.perf_counter()
        try:
            return self.bot.choose(game, state, seat, legal, rng)
        finally:
            self.times.append(time.perf_counter() - start)


@dataclasses.dataclass
class Entry:
    """One bot of the line-up (the same name twice is two entries) and what it achieved."""

    name: str
    wins: float = 0.0
    times: list[float] = dataclasses.field(default_factory=list)
    chairs: list[int] = dataclasses.field(default_factory=list)  # the seat it played in each game

    def share(self, games: int) -> float:
        return self.wins / games if games else 0.0

    def interval(self, games: int) -> tuple[float, float]:
        return wilson(self.wins, games)

    def percentiles(self) -> tuple[float, float, float]:
        if not self.times:
            return (0.0, 0.0, 0.0)
        ordered = sorted(self.times)
        return (ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], ordered[-1])


@dataclasses.dataclass
class ArenaResult:
    game: str
    players: int
    games: int
    seed: int
    entries: list[Entry]
    seconds: float
    checked: bool = True

    def to_json(self) -> dict[str, Any]:
        rows = []
        for e in self.entries:
            low, high = e.interval(self.games)
            p50, p95, top = e.percentiles()
            rows.append({"bot": e.name, "wins": round(e.wins, 3), "share": round(e.share(self.games), 4),
                         "ci95": [round(low, 4), round(high, 4)], "moves": len(e.times),
                         "move_ms": {"p50": round(p50 * 1e3, 2), "p95": round(p95 * 1e3, 2),
                                     "max": round(top * 1e3, 2)}})
        return {"game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
                "seconds": round(self.seconds, 1), "checked": self.checked, "bots": rows}

    def lines(self) -> list[str]:
        out = [f"{self.game}, {self.players} players, {self.games} games (seed {self.seed}), "
               f"{self.seconds:.1f} s; " + ("every game checked by the harness" if self.checked else "not checked")]
        for i, e in enumerate(self.entries):
            low, high = e.interval(self.games)
            p50, p95, top = e.percentiles()
            out.append(f"  bot {i + 1} {e.name:<9} wins {e.share(self.games):6.1%}  95% CI [{low:.1%}, {high:.1%}]"
                       f"  ({e.wins:g} of {self.games})  move time p50 {p50 * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms,"
                       f" max {top * 1e3:.1f} ms over {len(e.times)} moves")
        return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win share (shared wins count as fractions)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def arena(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    *,
    mode: Mode = "digital",
    options: Mapping[str, Any] | None = None,
    think: Mapping[str, float] | None = None,
    check: bool = True,
    progress: Callable[[int, ArenaResult], None] | None = None,
) -> ArenaResult:
    """Play `games` games; game g seats bot i in chair (i + g) mod players, so no bot keeps a lucky chair."""
    game = get_game(game_name)
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, not {len(bots)}")
    budgets = {level: Budget(seconds) for level, seconds in (think or {}).items()}
    entries = [Entry(name) for name in bots]
    result = ArenaResult(game.name, players, games, seed, entries, 0.0, check)
    started = time.perf_counter()
    for g in range(games):
        timed = [TimedBot(named_bot(game.name, name, budgets.get(name, BUDGETS.get(name)))) for name in bots]
        seating: dict[Seat, Bot] = {(i + g) % players: timed[i] for i in range(players)}
        done = playout(game, players, seed + g, mode=mode, options=options, bots=seating, check=check)
        winners = done.scores.get("winners") or []
        for i, bot in enumerate(timed):
            chair = (i + g) % players
            entries[i].chairs.append(chair)
            if chair in winners:
                entries[i].wins += 1.0 / len(winners)
            entries[i].times += bot.times
        result.games = g + 1
        result.seconds = time.perf_counter() - started
        if progress is not None:
            progress(g + 1, result)
    result.games = games
    return result
