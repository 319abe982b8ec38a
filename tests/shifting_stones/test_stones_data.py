"""The Shifting Stones data file: 9 stones, 72 pattern cards with the right point totals, each one buildable."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from importlib import resources

from companion.games.shifting_stones.patterns import (
    CARD_IDS,
    DATA,
    FACES,
    PATTERNS,
    SOLO_DECK,
    STONE_COUNTS,
    kind,
)


def test_the_data_file_is_plain_json_inside_the_package():
    text = resources.files("companion.games.shifting_stones").joinpath("data").joinpath("shifting_stones.json")
    assert json.loads(text.read_text(encoding="utf-8")) == DATA


def test_nine_stones_sun_moon_1_fish_bird_2_horse_boat_3_seed_tree_3():
    stones = {tuple(s["faces"]): s["count"] for s in DATA["stones"]}
    assert stones == {("sun", "moon"): 1, ("fish", "bird"): 2, ("horse", "boat"): 3, ("seed", "tree"): 3}
    assert sum(STONE_COUNTS) == 9
    assert len(set(FACES)) == 8


def test_72_pattern_cards_28_one_26_two_13_three_5_five_points():
    assert len(DATA["cards"]) == 72 == len(PATTERNS) == len(set(CARD_IDS))
    assert Counter(p.points for p in PATTERNS.values()) == {1: 28, 2: 26, 3: 13, 5: 5}
    assert sum(p.points for p in PATTERNS.values()) == 28 + 52 + 39 + 25


def test_every_card_is_a_rectangle_of_at_most_3_by_3_with_known_faces():
    for p in PATTERNS.values():
        assert 1 <= p.height <= 3 and 1 <= p.width <= 3, p.id
        assert all(len(row) == p.width for row in p.rows), p.id
        faces = [f for row in p.rows for f in row if f is not None]
        assert faces, f"{p.id} shows no stone"
        assert all(f in FACES for f in faces), p.id


def test_no_two_cards_show_the_same_pattern():
    assert len({p.rows for p in PATTERNS.values()}) == 72


def test_every_pattern_can_be_built_with_the_real_stones():
    for p in PATTERNS.values():
        need = Counter(kind(FACES.index(f)) for row in p.rows for f in row if f is not None)
        assert all(need[k] <= STONE_COUNTS[k] for k in need), f"{p.id} needs more stones than the game has"
        # And concretely: some full grid of the nine stones shows it.
        placement = p.placements[0]
        grid = [None] * 9
        for cell, face in zip(placement.cells, placement.faces):
            grid[cell] = face
        left = Counter({k: n for k, n in enumerate(STONE_COUNTS)}) - need
        fill = [k << 1 for k in left.elements()]
        for cell, code in zip([c for c in range(9) if grid[c] is None], fill):
            grid[cell] = code
        assert Counter(kind(f) for f in grid) == Counter({k: n for k, n in enumerate(STONE_COUNTS)})
        assert placement.on(grid)


def test_the_solo_deck_is_16_cards_8_4_3_1_and_there_are_enough_of_each():
    assert SOLO_DECK == {1: 8, 2: 4, 3: 3, 5: 1}
    by_points = Counter(p.points for p in PATTERNS.values())
    assert all(by_points[points] >= n for points, n in SOLO_DECK.items())


def test_end_trigger_table_and_bonus():
    assert {int(k): v for k, v in DATA["end_trigger_scored_cards"].items()} == {2: 10, 3: 9, 4: 8, 5: 7}
    assert DATA["most_one_point_cards_bonus"] == 3
    assert DATA["hand_size"] == 4 and DATA["skip_draw"] == 2


def test_placements_cover_every_offset_where_the_rectangle_fits():
    for p in PATTERNS.values():
        offsets = {(pl.row, pl.column) for pl in p.placements}
        assert offsets == set(itertools.product(range(4 - p.height), range(4 - p.width))), p.id
