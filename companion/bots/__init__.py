"""Bots that play a seat: three levels per game (easy, normal, strong), each deciding from its seat's view only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.bots.base import LEVELS, Adapter, Budget, EasyBot, PolicyBot, SearchBot, SeatBot, canonical
from companion.core.errors import BadConfig
from companion.core.game import Bot
from companion.core.registry import get_game

# Per level, the default thinking time per move (the budgets: strong ≤ 1 s, normal ≤ 0.2 s).
BUDGETS: dict[str, Budget] = {"easy": Budget(0.0), "normal": Budget(0.2), "strong": Budget(0.9)}


def hooks(game_name: str) -> Adapter:
    """The search hooks of a game."""
    name = get_game(game_name).name
    if name == "power_grid":
        from companion.bots.power_grid import PowerGridHooks

        return PowerGridHooks()
    if name == "bohnanza":
        from companion.bots.bohnanza import BohnanzaHooks

        return BohnanzaHooks()
    if name == "shifting_stones":
        from companion.bots.shifting_stones import StonesHooks

        return StonesHooks()
    raise BadConfig(f"there is no bot for {name}")


def make_bot(game_name: str, level: str, budget: Budget | None = None) -> SeatBot:
    """A bot of `level` for the game; `budget` overrides the level's thinking time (tests pass iterations)."""
    if level not in LEVELS:
        raise BadConfig(f"a bot level is one of {', '.join(LEVELS)}, not {level!r}")
    adapter = hooks(game_name)
    if level == "easy":
        return EasyBot(adapter)
    if level == "normal":
        return PolicyBot(adapter.policy())
    # A game may bring a strong level of its own (Shifting Stones: a search over whole turns).
    strong: Callable[[Budget], SeatBot] | None = getattr(adapter, "strong_bot", None)
    if strong is not None:
        return strong(budget or BUDGETS["strong"])
    return SearchBot(adapter, budget or BUDGETS["strong"])


def named_bot(game_name: str, name: str, budget: Budget | None = None) -> Bot:
    """A level, or one of the game's own selfplay bots (`heuristic`, `trader`, `greedy`, `random`; Power Grid's
    `baseline` is the heuristic bot with no ceiling on its bids, as it was before the levels arrived)."""
    if name in LEVELS:
        return make_bot(game_name, name, budget)
    game = get_game(game_name)
    if game.name == "power_grid" and name == "baseline":
        from companion.games.power_grid.bots import HeuristicBot

        return HeuristicBot(priced=False)
    found: dict[str, Any] = game.bots()
    if name not in found:
        known = ", ".join([*LEVELS, *found, *(["baseline"] if game.name == "power_grid" else [])])
        raise BadConfig(f"{game.title} has no bot {name!r} (bots: {known})")
    return found[name]


__all__ = ["BUDGETS", "LEVELS", "Budget", "SeatBot", "canonical", "hooks", "make_bot", "named_bot"]
