"""The shared playout harness: plays legal games to the end and checks the contract after every step."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.core.actions import Action
from companion.core.errors import IllegalAction
from companion.core.game import Bot, Game, GameConfig, Mode, RandomBot
from companion.core.seats import TABLE, Seat

Invariant = Callable[[Any, Any], None]  # (game state, config) -> raises AssertionError


class PlayoutFailure(AssertionError):
    """A broken contract, with the seed and step so the game can be replayed."""


@dataclasses.dataclass
class PlayoutResult:
    config: GameConfig
    seed: int
    actions: list[Action]
    final_state: Any
    finished: bool
    scores: dict[str, Any]


def choose_actor(game: Game[Any], state: Any, rng: random.Random) -> tuple[Seat, list[Action]] | None:
    """A seat that has legal actions now, picked at random, with its actions."""
    options = []
    for seat in game.current_seats(state):
        legal = game.legal_actions(state, seat)
        if legal:
            options.append((seat, legal))
    if not options:
        return None
    return rng.choice(options)


def ask_other_seats(
    game: Game[Any],
    state: Any,
    rng: random.Random,
    bots: Mapping[Seat, Bot],
    default_bot: Bot,
    declined: Seat,
) -> tuple[Seat, list[Action], Action] | None:
    """After a bot declined (it may pass on a move that is allowed but not required, such as a Bohnanza harvest
    at any time), the other seats that may act are asked in random order; None if every one declines."""
    others: list[Seat] = [s for s in game.current_seats(state) if s != declined]
    rng.shuffle(others)
    for seat in others:
        legal = game.legal_actions(state, seat)
        if not legal:
            continue
        bot = bots.get(seat, default_bot) if seat != TABLE else default_bot
        action = bot.choose(game, state, seat, legal, rng)
        if action is not None:
            return seat, legal, action
    return None


def playout(
    game: Game[Any],
    players: int,
    seed: int,
    *,
    mode: Mode = "digital",
    options: Mapping[str, Any] | None = None,
    chance: Mapping[str, Mode] | None = None,
    bots: Mapping[Seat, Bot] | None = None,
    check: bool = True,
    invariants: Sequence[Invariant] = (),
    max_steps: int | None = None,
) -> PlayoutResult:
    """Play one game with bots (random by default) from `seed`; with `check`, verify the contract."""
    config = game.make_config(players, mode, options, chance)
    rng = random.Random(f"playout:{seed}")
    state = game.setup(config, random.Random(seed))
    limit = max_steps if max_steps is not None else game.max_game_length
    actions: list[Action] = []
    default_bot = RandomBot()
    bots = bots or {}

    def fail(what: str) -> PlayoutFailure:
        return PlayoutFailure(f"{game.name} {players}p {mode} seed={seed} step={len(actions)}: {what}")

    if check:
        again = game.setup(config, random.Random(seed))
        if game.state_to_json(again) != game.state_to_json(state):
            raise fail("the same seed gave a different setup")
        _check_state(game, state, config, rng, invariants, fail)
    replayed = state
    while not game.is_over(state):
        if len(actions) >= limit:
            if max_steps is not None:
                break
            raise fail(f"no end after {limit} actions")
        pick = choose_actor(game, state, rng)
        if pick is None:
            raise fail(f"nobody can act but the game is not over (current seats {game.current_seats(state)})")
        seat, legal = pick
        bot = bots.get(seat, default_bot) if seat != TABLE else default_bot
        action = bot.choose(game, state, seat, legal, rng)
        if action is None:
            asked = ask_other_seats(game, state, rng, bots, default_bot, seat)
            if asked is None:
                raise fail("every seat that may act declined to")
            seat, legal, action = asked
        if check:
            before_json = game.state_to_json(state)
            if action not in legal:
                raise fail(f"bot chose {action} which is not among the legal actions")
            _check_bad_seat(game, state, action, fail)
        try:
            new_state, log = game.apply(state, action)
        except IllegalAction as exc:
            raise fail(f"legal action {action.to_json()} was refused: {exc.reason}") from exc
        actions.append(action)
        if check:
            if game.state_to_json(state) != before_json:
                raise fail(f"apply changed the state it was given ({action.kind})")
            # The logged form of the action must rebuild the same state (replay).
            parsed = game.actions.parse(json.dumps(action.to_json()))
            if parsed != action:
                raise fail(f"action JSON round trip changed {action} into {parsed}")
            replayed, _ = game.apply(replayed, parsed)
            if replayed != new_state:
                raise fail("replaying the logged action gave a different state")
            # Undo then redo: the earlier state, given the same action, gives the same result.
            redo, _ = game.apply(state, action)
            if redo != new_state:
                raise fail("applying the same action twice to the same state gave different results")
            for m in log:
                m.render()
                json.dumps(m.to_json())
            _check_state(game, new_state, config, rng, invariants, fail)
        state = new_state
    if check:
        full = game.setup(config, random.Random(seed))
        for a in actions:
            full, _ = game.apply(full, a)
        if full != state:
            raise fail("a full replay of the log differs from the live state")
        json.dumps(game.scores(state))
    return PlayoutResult(config, seed, actions, state, game.is_over(state), game.scores(state))


def _check_state(
    game: Game[Any],
    state: Any,
    config: GameConfig,
    rng: random.Random,
    invariants: Sequence[Invariant],
    fail: Callable[[str], PlayoutFailure],
) -> None:
    data = game.state_to_json(state)
    text = json.dumps(data, sort_keys=True)
    back = game.state_from_json(json.loads(text))
    if back != state:
        raise fail("the state changed in a JSON round trip")
    for seat in [None, *range(config.players)]:
        view = game.view(state, seat)
        json.dumps(view)
        other = game.indistinguishable(state, seat, random.Random(rng.random()))
        if game.view(other, seat) != view:
            who = "the public view" if seat is None else f"seat {seat}'s view"
            raise fail(f"{who} reveals something it must not: it changed when the hidden information was re-drawn")
    for inv in invariants:
        try:
            inv(state, config)
        except AssertionError as exc:
            raise fail(f"invariant {getattr(inv, '__name__', inv)}: {exc}") from exc


def _check_bad_seat(game: Game[Any], state: Any, action: Action, fail: Callable[[str], PlayoutFailure]) -> None:
    """An action by a seat that may not act now is refused."""
    current = set(game.current_seats(state))
    for seat in range(8):
        if seat not in current:
            wrong = dataclasses.replace(action, seat=seat)
            try:
                game.apply(state, wrong)
            except IllegalAction:
                return
            raise fail(f"{action.kind} was accepted from seat {seat}, which may not act now")


@dataclasses.dataclass
class SelfplaySummary:
    game: str
    players: int
    games: int
    finished: int
    mean_actions: float
    winners_by_seat: dict[int, int]
    seconds: float
    failures: list[str]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "finished": self.finished,
            "mean_actions": round(self.mean_actions, 1),
            "winners_by_seat": {str(k): v for k, v in sorted(self.winners_by_seat.items())},
            "games_per_second": round(self.games_per_second, 2),
            "failures": self.failures,
        }


def selfplay(
    game: Game[Any],
    players: int,
    games: int,
    seed: int,
    *,
    bot: str = "random",
    mode: Mode = "digital",
    options: Mapping[str, Any] | None = None,
    check: bool = False,
) -> SelfplaySummary:
    """Play `games` games with the named bot in every seat; failures are collected, not raised."""
    available = game.bots()
    if bot not in available:
        raise ValueError(f"{game.title} has no bot {bot!r} (bots: {', '.join(available)})")
    bots: dict[Seat, Bot] = {s: available[bot] for s in range(players)}
    started = time.perf_counter()
    finished = 0
    lengths = []
    winners: Counter[int] = Counter()
    failures = []
    for i in range(games):
        try:
            result = playout(
                game, players, seed + i, mode=mode, options=options, bots=bots, check=check
            )
        except Exception as exc:  # a broken game is reported, and the run goes on to count the rest
            failures.append(f"seed {seed + i}: {type(exc).__name__}: {exc}")
            continue
        lengths.append(len(result.actions))
        if result.finished:
            finished += 1
            for w in result.scores.get("winners", []):
                winners[w] += 1
    seconds = time.perf_counter() - started
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    return SelfplaySummary(game.name, players, games, finished, mean, dict(winners), seconds, failures)
