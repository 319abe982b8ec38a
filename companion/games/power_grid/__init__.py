"""Power Grid (2004 edition, Germany and USA maps): the rules engine, registered as `power_grid`."""

from companion.core import register
from companion.games.power_grid.game import PowerGrid

GAME = register(PowerGrid())

__all__ = ["GAME", "PowerGrid"]
