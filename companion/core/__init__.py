"""The game-agnostic engine core: the game contract, actions, seats, log messages, errors."""

from companion.core.actions import Action, ActionSet
from companion.core.errors import (
    BadConfig,
    CompanionError,
    IllegalAction,
    MalformedAction,
    NotAllowed,
    NotYourTurn,
    StaleState,
    UnknownGame,
)
from companion.core.game import ChanceEvent, Game, GameConfig, Mode, OptionSpec, RandomBot, chance_rng, replay
from companion.core.log import LogMessage, msg
from companion.core.registry import all_games, get_game, register
from companion.core.seats import HOST, TABLE, Seat, parse_seat

__all__ = [
    "HOST",
    "TABLE",
    "Action",
    "ActionSet",
    "BadConfig",
    "ChanceEvent",
    "CompanionError",
    "Game",
    "GameConfig",
    "IllegalAction",
    "LogMessage",
    "MalformedAction",
    "Mode",
    "NotAllowed",
    "NotYourTurn",
    "OptionSpec",
    "RandomBot",
    "Seat",
    "StaleState",
    "UnknownGame",
    "all_games",
    "chance_rng",
    "get_game",
    "msg",
    "parse_seat",
    "register",
    "replay",
]
