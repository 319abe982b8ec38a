"""The actions of Shifting Stones: the players' moves, the table's reveals and the host's corrections."""

from __future__ import annotations

import dataclasses

from companion.core.actions import Action


@dataclasses.dataclass(frozen=True)
class ShiftStones(Action):
    """Discard a hand card to swap two orthogonally adjacent stones (cells 0–8, top left to bottom right)."""

    card: str
    a: int
    b: int
    summary = "discard a card to swap two neighbouring stones"


@dataclasses.dataclass(frozen=True)
class FlipStone(Action):
    """Discard a hand card to turn one stone over."""

    card: str
    cell: int
    summary = "discard a card to turn a stone over"


@dataclasses.dataclass(frozen=True)
class ScoreCard(Action):
    """Reveal a hand card whose pattern is on the grid and keep it face up for its points."""

    card: str
    summary = "score a card whose pattern is on the grid"


@dataclasses.dataclass(frozen=True)
class EndTurn(Action):
    """End the turn and draw back up to four cards."""

    summary = "end your turn and draw back up to 4"


@dataclasses.dataclass(frozen=True)
class SkipTurn(Action):
    """Instead of any action this turn, draw two cards and end the turn (never two turns running)."""

    summary = "skip: draw 2 cards instead of acting"


@dataclasses.dataclass(frozen=True)
class SetGrid(Action):
    """TABLE: the starting grid as laid out on the table, nine faces row by row from the top left."""

    faces: tuple[str, ...]
    summary = "enter the starting grid"


@dataclasses.dataclass(frozen=True)
class DrawPattern(Action):
    """TABLE: the pattern card just drawn from the real deck (an NFC tap), into the drawing player's hand."""

    card: str
    summary = "the card drawn from the deck"


@dataclasses.dataclass(frozen=True)
class CorrectScore(Action):
    """HOST: add `delta` points to a player's score when the table and the companion disagree."""

    target: int
    delta: int
    host_only = True
    summary = "correct a player's score"


@dataclasses.dataclass(frozen=True)
class CorrectGrid(Action):
    """HOST: set the grid to what is really on the table, nine faces row by row from the top left."""

    faces: tuple[str, ...]
    host_only = True
    summary = "correct the grid to match the table"


PLAYER_ACTIONS: tuple[type[Action], ...] = (ShiftStones, FlipStone, ScoreCard, EndTurn, SkipTurn)
TABLE_ACTIONS: tuple[type[Action], ...] = (SetGrid, DrawPattern)
HOST_ACTIONS: tuple[type[Action], ...] = (CorrectScore, CorrectGrid)
ALL_ACTIONS: tuple[type[Action], ...] = PLAYER_ACTIONS + TABLE_ACTIONS + HOST_ACTIONS
