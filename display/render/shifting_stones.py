"""The shifting_stones table."""

from __future__ import annotations

from display.render import GameRenderer


class ShiftingStonesRenderer(GameRenderer):
    game = "shifting_stones"
