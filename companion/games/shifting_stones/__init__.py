"""Shifting Stones (1–5 players): the rules engine with exact move hints, registered as `shifting_stones`."""

from companion.core.registry import register
from companion.games.shifting_stones.game import GAME, ShiftingStones

register(GAME)

__all__ = ["GAME", "ShiftingStones"]
