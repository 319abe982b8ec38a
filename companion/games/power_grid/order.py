"""Phase 1: turn order (most cities first; ties go to the highest plant)."""

from __future__ import annotations

from companion.games.power_grid.state import PowerGridState


def turn_order(state: PowerGridState) -> tuple[int, ...]:
    return tuple(
        sorted(range(state.n), key=lambda s: (-len(state.players[s].cities), -state.players[s].highest_plant, s))
    )
