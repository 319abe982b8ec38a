"""The power_grid table."""

from __future__ import annotations

from display.render import GameRenderer


class PowerGridRenderer(GameRenderer):
    game = "power_grid"
