"""The registry of games: each game package registers itself under its name."""

from __future__ import annotations

import importlib
import os
from typing import Any

from companion.core.errors import UnknownGame
from companion.core.game import Game

_GAMES: dict[str, Game[Any]] = {}

# Built-in games, imported on first use so the core does not depend on them.
BUILTIN = {
    "power_grid": "companion.games.power_grid",
    "bohnanza": "companion.games.bohnanza",
    "shifting_stones": "companion.games.shifting_stones",
}


def register(game: Game[Any]) -> Game[Any]:
    _GAMES[game.name] = game
    return game


def _import_builtin(module: str) -> None:
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # A game still being written is simply absent; a broken import inside it is not.
        if exc.name is None or not module.startswith(exc.name):
            raise


def _load_builtins() -> None:
    # Extra game modules (plug-ins, or a test's own game) named in $COMPANION_GAMES, comma-separated.
    for module in filter(None, os.environ.get("COMPANION_GAMES", "").split(",")):
        importlib.import_module(module.strip())
    for name, module in BUILTIN.items():
        if name not in _GAMES:
            _import_builtin(module)


def get_game(name: str) -> Game[Any]:
    if name not in _GAMES and name in BUILTIN:
        # Only the game asked for: a table starting one game need not import the others' engines first.
        _import_builtin(BUILTIN[name])
    if name not in _GAMES:
        _load_builtins()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGame(f"no game called {name!r} (games: {known})") from None


def all_games() -> dict[str, Game[Any]]:
    _load_builtins()
    return dict(sorted(_GAMES.items()))
