"""The stones, the 3×3 grid and the 72 pattern cards: the data file, and whether a pattern is on the grid."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from companion.core.errors import IllegalAction
from companion.core.words import Words
from companion.i18n import N_


def _load() -> dict[str, Any]:
    package = "companion.games.shifting_stones"
    text = resources.files(package).joinpath("data").joinpath("shifting_stones.json").read_text(encoding="utf-8")
    return json.loads(text)


DATA: dict[str, Any] = _load()

# Face codes: the stone kinds in data order, each kind's two faces side by side, so that a face's kind is
# `code >> 1` and flipping a stone toggles the lowest bit.
FACES: tuple[str, ...] = tuple(face for stone in DATA["stones"] for face in stone["faces"])
FACE_CODE: dict[str, int] = {face: code for code, face in enumerate(FACES)}
STONE_COUNTS: tuple[int, ...] = tuple(stone["count"] for stone in DATA["stones"])
KIND_NAMES: tuple[str, ...] = tuple("/".join(stone["faces"]) for stone in DATA["stones"])

SIZE: int = DATA["grid_size"]
CELLS: tuple[int, ...] = tuple(range(SIZE * SIZE))
CELL_NAMES: tuple[str, ...] = (
    "top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right",
)  # fmt: skip
# The twelve pairs of orthogonal neighbours a shift may swap, each with the lower cell first.
NEIGHBOURS: tuple[tuple[int, int], ...] = tuple(
    [(r * SIZE + c, r * SIZE + c + 1) for r in range(SIZE) for c in range(SIZE - 1)]
    + [(r * SIZE + c, (r + 1) * SIZE + c) for r in range(SIZE - 1) for c in range(SIZE)]
)
NEIGHBOUR_SET: frozenset[tuple[int, int]] = frozenset(NEIGHBOURS)

HAND_SIZE: int = DATA["hand_size"]
SKIP_DRAW: int = DATA["skip_draw"]
END_TRIGGER: dict[int, int] = {int(k): v for k, v in DATA["end_trigger_scored_cards"].items()}
ONE_POINT_BONUS: int = DATA["most_one_point_cards_bonus"]
SOLO_DECK: dict[int, int] = {int(k): v for k, v in DATA["solo"]["deck_by_points"].items()}
SOLO_STRIKES_TO_LOSE: int = DATA["solo"]["strikes_to_lose"]


def kind(face: int) -> int:
    return face >> 1


def flipped(face: int) -> int:
    return face ^ 1


@dataclasses.dataclass(frozen=True)
class Placement:
    """One position of a card's rectangle on the grid: the grid cells its coloured squares cover."""

    row: int
    column: int
    cells: tuple[int, ...]
    faces: tuple[int, ...]

    def on(self, grid: Sequence[int]) -> bool:
        return all(grid[c] == f for c, f in zip(self.cells, self.faces))

    def to_json(self) -> dict[str, Any]:
        return {"offset": [self.row, self.column], "cells": list(self.cells)}


@dataclasses.dataclass(frozen=True)
class Pattern:
    """A pattern card: its points and its rows, top first; None is a grey square (any stone)."""

    id: str
    points: int
    rows: tuple[tuple[str | None, ...], ...]
    # Derived once: where the card can lie on the grid, and which kinds of stone it asks for.
    placements: tuple[Placement, ...] = dataclasses.field(init=False, compare=False, repr=False)
    kinds: frozenset[int] = dataclasses.field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        squares = [
            (r, c, FACE_CODE[face]) for r, row in enumerate(self.rows) for c, face in enumerate(row) if face is not None
        ]
        # The whole rectangle, grey squares included, must lie on the grid: that bounds the offsets.
        placements = tuple(
            Placement(dr, dc, tuple((dr + r) * SIZE + dc + c for r, c, _ in squares), tuple(f for _, _, f in squares))
            for dr in range(SIZE - self.height + 1)
            for dc in range(SIZE - self.width + 1)
        )
        object.__setattr__(self, "placements", placements)
        object.__setattr__(self, "kinds", frozenset(kind(f) for _, _, f in squares))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def text(self) -> str:
        """The rows as one line, `/` between rows and `*` for grey squares ("seed fish", "tree * / * horse")."""
        return " / ".join(" ".join(face or "*" for face in row) for row in self.rows)

    def words(self) -> Words:
        """The card for people in any language: "pattern SS13 (seed fish / tree *, 2 points)", each face a word."""
        faces = [word for row in self.rows for word in (*(face or "*" for face in row), "/")][:-1]
        template = N_("pattern {card} ({pattern}, 1 point)") if self.points == 1 else \
            N_("pattern {card} ({pattern}, {points} points)")
        return Words(template, {"card": self.id, "pattern": faces, "points": self.points})

    def label(self) -> str:
        return str(self.words())

    def to_json(self) -> dict[str, Any]:
        return {"card": self.id, "points": self.points, "rows": [[face or "*" for face in row] for row in self.rows]}


def _pattern(raw: dict[str, Any]) -> Pattern:
    rows = tuple(tuple(None if face == "*" else face for face in row) for row in raw["rows"])
    return Pattern(raw["id"], raw["points"], rows)


PATTERNS: dict[str, Pattern] = {raw["id"]: _pattern(raw) for raw in DATA["cards"]}
CARD_IDS: tuple[str, ...] = tuple(PATTERNS)
POINT_VALUES: tuple[int, ...] = tuple(sorted({p.points for p in PATTERNS.values()}))
ALL_CARDS_BY_POINTS: dict[int, int] = dict(sorted(Counter(p.points for p in PATTERNS.values()).items()))


def placements_on(grid: Sequence[int], pattern: Pattern) -> list[Placement]:
    """Every placement at which the pattern shows on the grid (face codes); empty if it does not match."""
    return [p for p in pattern.placements if p.on(grid)]


def matches(grid: Sequence[int], pattern: Pattern) -> bool:
    return any(p.on(grid) for p in pattern.placements)


# -- grids ---------------------------------------------------------------------------------------


def encode(faces: Sequence[str]) -> tuple[int, ...]:
    return tuple(FACE_CODE[f] for f in faces)


def decode(codes: Iterable[int]) -> tuple[str, ...]:
    return tuple(FACES[c] for c in codes)


def check_grid(faces: Sequence[str]) -> tuple[str, ...]:
    """A grid the real stones can make (nine known faces, the right number of each stone), or IllegalAction."""
    if len(faces) != len(CELLS):
        raise IllegalAction(
            "a grid has {stones} stones and {count} were entered: enter all {stones}, row by row from the top left",
            stones=len(CELLS), count=len(faces)
        )
    unknown = [f for f in faces if f not in FACE_CODE]
    if unknown:
        # The faces and the stones are the game's own (the data file's, checked by the tests): part of the sentence.
        raise IllegalAction(
            "'{face}' is not a stone face (faces: sun, moon, fish, bird, horse, boat, seed, tree)", face=unknown[0]
        )
    counts = Counter(kind(FACE_CODE[f]) for f in faces)
    wrong = [k for k, n in enumerate(STONE_COUNTS) if counts[k] != n]
    if wrong:
        k = wrong[0]
        raise IllegalAction(
            "the stones are 1 sun/moon, 2 fish/bird, 3 horse/boat, 3 seed/tree; this grid has {count} {stone}: check "
            "the stones and enter them again",
            count=counts[k],
            stone=KIND_NAMES[k],
        )
    return tuple(faces)


def random_grid(rng: Any) -> tuple[str, ...]:
    """A shuffled grid: the nine stones in random cells, each showing a random face."""
    stones = [k for k, n in enumerate(STONE_COUNTS) for _ in range(n)]
    rng.shuffle(stones)
    return decode((k << 1) | rng.randrange(2) for k in stones)


def rows_of(faces: Sequence[str]) -> list[list[str]]:
    return [list(faces[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
