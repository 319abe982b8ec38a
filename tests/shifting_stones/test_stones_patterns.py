"""The matching rule: a card's whole rectangle, grey squares included, on the grid; no rotation, no mirroring."""

from __future__ import annotations

from collections import Counter

import pytest
from stones_table import rows

from companion.games.shifting_stones.patterns import (
    FACES,
    PATTERNS,
    STONE_COUNTS,
    encode,
    flipped,
    kind,
    matches,
    placements_on,
)

SHAPES = sorted({(p.height, p.width) for p in PATTERNS.values()})


def grid_showing(card: str, row: int, column: int) -> list[int]:
    """A legal grid (the nine real stones) with the card's coloured squares at this offset."""
    p = PATTERNS[card]
    grid: list[int | None] = [None] * 9
    for r, line in enumerate(p.rows):
        for c, face in enumerate(line):
            if face is not None:
                grid[(row + r) * 3 + column + c] = FACES.index(face)
    left = Counter({k: n for k, n in enumerate(STONE_COUNTS)}) - Counter(kind(f) for f in grid if f is not None)
    rest = iter(k << 1 for k in sorted(left.elements()))
    return [f if f is not None else next(rest) for f in grid]


def test_the_cards_come_in_every_shape_up_to_3_by_3():
    assert SHAPES == [(1, 2), (1, 3), (2, 1), (2, 2), (3, 1), (3, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_card_of_every_shape_matches_at_every_offset_where_its_rectangle_fits(shape):
    for card in [c for c, p in PATTERNS.items() if (p.height, p.width) == shape]:
        p = PATTERNS[card]
        for row in range(4 - p.height):
            for column in range(4 - p.width):
                grid = grid_showing(card, row, column)
                found = {(pl.row, pl.column) for pl in placements_on(grid, p)}
                assert (row, column) in found, f"{card} at {row},{column}"
                assert matches(grid, p)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_coloured_square_must_show_its_face(shape):
    for card in [c for c, p in PATTERNS.items() if (p.height, p.width) == shape]:
        p = PATTERNS[card]
        for row in range(4 - p.height):
            for column in range(4 - p.width):
                grid = grid_showing(card, row, column)
                for cell in next(pl for pl in p.placements if (pl.row, pl.column) == (row, column)).cells:
                    wrong = list(grid)
                    wrong[cell] = flipped(wrong[cell])
                    found = {(pl.row, pl.column) for pl in placements_on(wrong, p)}
                    assert (row, column) not in found, f"{card} at {row},{column} with cell {cell} flipped"


def test_grey_squares_must_lie_on_the_grid_too():
    # SS37 is "* * sun": the sun must be in the right-hand column, where the two grey squares fit to its left.
    card = PATTERNS["SS37"]
    for sun_cell in range(9):
        grid = [FACES.index("seed")] * 9
        grid[sun_cell] = FACES.index("sun")
        assert matches(grid, card) == (sun_cell % 3 == 2), sun_cell
    # SS33 is a 3×3 card with the sun in its top left corner: it has one position only.
    card = PATTERNS["SS33"]
    for sun_cell in range(9):
        grid = [FACES.index("tree")] * 9
        grid[sun_cell] = FACES.index("sun")
        assert matches(grid, card) == (sun_cell == 0), sun_cell


def test_no_rotation():
    # SS14 is "tree horse" side by side; SS27 is tree above horse. A grid with the tree above the horse shows
    # only SS27, one with them side by side only SS14.
    above = encode(rows("tree seed seed", "horse boat boat", "fish bird sun"))
    side = encode(rows("tree horse seed", "seed boat boat", "fish bird sun"))
    assert matches(above, PATTERNS["SS27"]) and not matches(above, PATTERNS["SS14"])
    assert matches(side, PATTERNS["SS14"]) and not matches(side, PATTERNS["SS27"])


def test_no_mirroring():
    # SS03 is "* seed / boat *": seed top right, boat bottom left. Its mirror image does not count.
    card = PATTERNS["SS03"]
    mirrored = encode(rows("seed horse horse", "tree boat tree", "fish bird sun"))
    shown = encode(rows("horse seed horse", "boat tree tree", "fish bird sun"))
    assert not matches(mirrored, card)
    assert matches(shown, card)
    # And reversed left to right: SS05 is "bird horse", not "horse bird".
    reversed_ = encode(rows("horse bird seed", "boat boat tree", "fish tree sun"))
    assert not matches(reversed_, PATTERNS["SS05"])


def test_a_pattern_showing_twice_is_still_one_match_per_card():
    # SS10 "horse horse" fits in two places on this grid; a card scores once all the same (see the rules tests).
    grid = encode(rows("horse horse seed", "horse tree tree", "fish bird sun"))
    assert len(placements_on(grid, PATTERNS["SS10"])) == 1
    grid = encode(rows("horse horse horse", "seed tree tree", "fish bird sun"))
    assert len(placements_on(grid, PATTERNS["SS10"])) == 2
