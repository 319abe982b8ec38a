"""The bohnanza table."""

from __future__ import annotations

from display.render import GameRenderer


class BohnanzaRenderer(GameRenderer):
    game = "bohnanza"
