"""Bohnanza for 2–7 players, trading and the two-player duel included; registers the game."""

from companion.core import register
from companion.games.bohnanza.game import GAME, BohnanzaGame

register(GAME)

__all__ = ["GAME", "BohnanzaGame"]
