"""What every bot level shares: the seat's canonical information set, budgets, rollouts and the root search."""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.core.actions import Action
from companion.core.game import Bot, Game
from companion.core.seats import TABLE, Seat

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")


class _CanonicalRandom(random.Random):
    """A 'random' source that always makes the same choice: shuffles sort, draws take the lowest value.

    Handed to a game's `indistinguishable`, it maps every state a seat cannot tell apart onto one and the same
    state, because all that survives is what the seat knows (the multiset of hidden cards, not their places).
    """

    def __init__(self) -> None:
        super().__init__(0)

    def shuffle(self, x: list[Any], *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        x.sort(key=_order)

    def random(self) -> float:
        return 0.0

    def randint(self, a: int, b: int) -> int:
        return a

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        return 0 if stop is None else start

    def choice(self, seq: Sequence[Any]) -> Any:
        return min(seq, key=_order)

    def sample(self, population: Sequence[Any], k: int, **kwargs: Any) -> list[Any]:  # type: ignore[override]
        return sorted(population, key=_order)[:k]


def _order(item: Any) -> tuple[int, str]:
    return (0, f"{item:012d}") if isinstance(item, int) and item >= 0 else (1, repr(item))


def canonical(game: Game[Any], state: Any, seat: Seat) -> Any:
    """The seat's information set as one representative state: every secret of others re-drawn the same way.

    Two states the seat cannot tell apart give the same canonical state, so a bot that reads only this can never
    decide differently on something it may not know. Search samples the information set from it.
    """
    return game.indistinguishable(state, seat, _CanonicalRandom())


@dataclasses.dataclass(frozen=True)
class Budget:
    """How long a decision may search: `seconds` of thinking and/or a fixed number of `iterations` (tests use
    iterations alone, so a decision is reproducible)."""

    seconds: float | None = None
    iterations: int | None = None

    def scaled(self, factor: float) -> Budget:
        return Budget(None if self.seconds is None else self.seconds * factor, self.iterations)


class SeatBot(Bot, Protocol):
    """A bot that plays one seat from its information set; `level` names it."""

    level: str

    def choose(
        self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None: ...


class Adapter(Protocol):
    """What the search needs to know about one game."""

    def policy(self) -> Bot:
        """The fast player used in playouts and for decisions not worth a search (the `normal` level)."""
        ...

    def candidates(
        self, game: Game[Any], state: Any, seat: int, legal: Sequence[Action], rng: random.Random
    ) -> list[Action | None]:
        """The moves worth comparing now, the policy's own first; one or none means no search is needed."""
        ...

    def determinize(self, game: Game[Any], state: Any, seat: int, rng: random.Random) -> Any:
        """A state sampled from the seat's information set (the canonical state given)."""
        ...

    def stop(self, start: Any, state: Any, seat: int) -> bool:
        """True when a playout may stop here and be judged by `evaluate`."""
        ...

    def evaluate(self, game: Game[Any], state: Any, seat: int) -> float:
        """How good the state is for the seat, 0 (lost) to 1 (won)."""
        ...


def outcome(game: Game[Any], state: Any, seat: int) -> float:
    """1 for a sole win, a share for a shared one, else 0."""
    winners = game.scores(state).get("winners") or []
    return 1.0 / len(winners) if seat in winners else 0.0


def squash(margin: float, scale: float) -> float:
    return 1.0 / (1.0 + math.exp(-margin / scale))


def playout_step(game: Game[Any], state: Any, policy: Bot, rng: random.Random) -> Any | None:
    """One move of a playout: the seats that may act are asked in random order (the table's reveals are chance);
    None when every one of them declines."""
    seats = list(game.current_seats(state))
    rng.shuffle(seats)
    for s in seats:
        legal = game.legal_actions(state, s)
        if not legal:
            continue
        action = rng.choice(legal) if s == TABLE else policy.choose(game, state, s, legal, rng)
        if action is not None:
            return game.apply(state, action)[0]
    return None


def playout(
    game: Game[Any], state: Any, seat: int, adapter: Adapter, rng: random.Random, max_steps: int = 4000
) -> float:
    start = state
    policy = adapter.policy()
    for _ in range(max_steps):
        if game.is_over(state):
            return outcome(game, state, seat)
        if adapter.stop(start, state, seat):
            break
        after = playout_step(game, state, policy, rng)
        if after is None:
            break
        state = after
    return adapter.evaluate(game, state, seat)


class SearchBot:
    """Information-set Monte Carlo search at the root: each iteration samples a state the seat cannot tell from the
    real one, tries the candidate with the best upper confidence bound (UCB1), plays on with the fast policy and
    judges the result; the candidate with the best mean wins. Ties go to the policy's own choice."""

    def __init__(self, adapter: Adapter, budget: Budget, level: str = "strong", exploration: float = 0.7,
                 margin: float = 0.04) -> None:
        self.adapter = adapter
        self.margin = margin
        self.budget = budget
        self.level = level
        self.exploration = exploration
        self.last_iterations = 0

    def choose(
        self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        info = canonical(game, state, seat)
        if not isinstance(seat, int):
            return rng.choice(list(legal))
        options = self.adapter.candidates(game, info, seat, legal, rng)
        self.last_iterations = 0
        if not options:
            return self.adapter.policy().choose(game, info, seat, legal, rng)
        if len(options) == 1:
            return options[0]
        return options[self._search(game, info, seat, options, rng)]

    def _search(self, game: Game[Any], info: Any, seat: int, options: list[Action | None], rng: random.Random) -> int:
        n = len(options)
        visits = [0] * n
        total = [0.0] * n
        began = time.perf_counter()
        deadline = None if self.budget.seconds is None else began + self.budget.seconds
        limit = self.budget.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            # Stop before an iteration that would likely end past the deadline (iterations vary, so keep a margin).
            if deadline is not None and done >= n:
                now = time.perf_counter()
                if now + 1.5 * (now - began) / done >= deadline:
                    break
            if limit is None and deadline is None and done >= 50 * n:
                break
            if done < n:
                pick = done
            else:
                log_n = math.log(done)
                pick = max(range(n), key=lambda i: total[i] / visits[i]
                           + self.exploration * math.sqrt(log_n / visits[i]))
            world = self.adapter.determinize(game, info, seat, rng)
            option = options[pick]
            if option is not None:
                world = game.apply(world, option)[0]
            total[pick] += playout(game, world, seat, self.adapter, rng)
            visits[pick] += 1
            done += 1
        self.last_iterations = done
        mean = [total[i] / visits[i] if visits[i] else -1.0 for i in range(n)]
        best = max(range(n), key=lambda i: (mean[i], -i))
        # Few noisy playouts must not talk it out of the policy's move: another wins only by a clear margin.
        return best if mean[best] > mean[0] + self.margin else 0


class PolicyBot:
    """The `normal` level: the game's fast policy, deciding from the seat's canonical information set."""

    def __init__(self, policy: Bot, level: str = "normal") -> None:
        self.policy = policy
        self.level = level

    def choose(
        self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        return self.policy.choose(game, canonical(game, state, seat), seat, legal, rng)


class EasyBot:
    """The `easy` level: the policy, but now and then a human slip: another of the moves worth considering."""

    def __init__(self, adapter: Adapter, slip: float = 0.3, level: str = "easy") -> None:
        self.adapter = adapter
        self.slip = slip
        self.level = level

    def choose(
        self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        info = canonical(game, state, seat)
        if isinstance(seat, int) and rng.random() < self.slip:
            options = self.adapter.candidates(game, info, seat, legal, rng)
            if len(options) > 1:
                return rng.choice(options)
        return self.adapter.policy().choose(game, info, seat, legal, rng)


Factory = Callable[[str, Budget | None], SeatBot]
