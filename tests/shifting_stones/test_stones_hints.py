"""The hints are exact: checked against plain breadth-first searches on hundreds of random positions."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from stones_table import HANDS, play, table

from companion.games.shifting_stones import GAME
from companion.games.shifting_stones.actions import EndTurn, ScoreCard
from companion.games.shifting_stones.best_turn import _MOVES, _SKIP_AFTER, best_turn, best_turn_checked, greedy_turn
from companion.games.shifting_stones.distance import (
    CardInfo,
    Move,
    _keyed,
    apply_packed,
    distance,
    pack,
    route,
)
from companion.games.shifting_stones.hints import card_plan, turn_plan
from companion.games.shifting_stones.patterns import (
    CARD_IDS,
    PATTERNS,
    STONE_COUNTS,
    encode,
    placements_on,
    random_grid,
)

# -- plain searches, written from the rules and sharing nothing with the engine's search but the matching rule --

SWAPS = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)] + [(i, i + 3) for i in range(6)]


def neighbours(grid: tuple[int, ...]) -> list[tuple[int, ...]]:
    out = []
    for a, b in SWAPS:
        g = list(grid)
        g[a], g[b] = g[b], g[a]
        out.append(tuple(g))
    for cell in range(9):
        g = list(grid)
        g[cell] ^= 1  # the two faces of a stone are neighbouring codes
        out.append(tuple(g))
    return out


def shows(grid: tuple[int, ...], card: str) -> bool:
    return bool(placements_on(grid, PATTERNS[card]))


def layers(grid: tuple[int, ...], depth: int) -> list[set[tuple[int, ...]]]:
    """The grids first reached after 0, 1, ..., depth moves."""
    seen = {grid}
    out = [{grid}]
    for _ in range(depth):
        nxt = set()
        for g in out[-1]:
            for h in neighbours(g):
                if h not in seen:
                    seen.add(h)
                    nxt.add(h)
        out.append(nxt)
    return out


def brute_turn(grid: tuple[int, ...], hand: list[str]) -> tuple[int, int]:
    """(most points this turn, fewest moves for them) by trying every way to play the turn.

    A state is (grid, cards still in hand, points so far). From it: score a hand card that shows, or discard any
    hand card to make any of the 21 moves. States that are the same but for fewer points are dropped.
    """
    best = (0, 0)
    frontier = {(grid, frozenset(hand)): 0}
    for moves in range(len(hand)):
        # Score everything that can be scored at this grid, in every combination (a card may also be kept).
        grown = dict(frontier)
        queue = list(frontier.items())
        while queue:
            (g, held), pts = queue.pop()
            for c in held:
                if shows(g, c):
                    key = (g, held - {c})
                    if grown.get(key, -1) < pts + PATTERNS[c].points:
                        grown[key] = pts + PATTERNS[c].points
                        queue.append((key, grown[key]))
        for pts in grown.values():
            if pts > best[0]:
                best = (pts, moves)
        if moves == len(hand) - 1:
            break
        frontier = {}
        for (g, held), pts in grown.items():
            for spent in held:
                rest = held - {spent}
                if not rest:
                    continue
                for h in neighbours(g):
                    if frontier.get((h, rest), -1) < pts:
                        frontier[(h, rest)] = pts
    return best


def brute_turn_by_paths(grid: tuple[int, ...], hand: list[str]) -> tuple[int, int]:
    """The same by paths of moves: a card scores if it showed somewhere on the path; each move spends a card."""
    size = len(hand)
    showing: dict[tuple[int, ...], frozenset[str]] = {}

    def shown_on(g: tuple[int, ...]) -> frozenset[str]:
        if g not in showing:
            showing[g] = frozenset(c for c in hand if shows(g, c))
        return showing[g]

    level = {(grid, shown_on(grid))}
    best = (_top(shown_on(grid), size), 0)
    for moves in range(1, size):
        level = {(h, shown | shown_on(h)) for g, shown in level for h in neighbours(g)}
        for _, shown in level:
            value = _top(shown, size - moves)
            if value > best[0]:
                best = (value, moves)
    return best


def _top(cards: frozenset[str], slots: int) -> int:
    return sum(sorted((PATTERNS[c].points for c in cards), reverse=True)[:slots])


def positions(seed: int, count: int, size: int) -> list[tuple[tuple[int, ...], list[str]]]:
    rng = random.Random(seed)
    return [(encode(random_grid(rng)), rng.sample(CARD_IDS, size)) for _ in range(count)]


# -- fewest actions per card ------------------------------------------------------------------------------------


def test_fewest_actions_per_card_equal_a_breadth_first_search():
    checked = 0
    for grid, cards in positions(seed=1, count=40, size=10):
        found = layers(grid, 3)
        for card in cards:
            depth = next((d for d, level in enumerate(found) if any(shows(g, card) for g in level)), None)
            d = distance(grid, PATTERNS[card])
            if depth is None:
                assert d > 3, (grid, card)
            else:
                assert d == depth, (grid, card, d, depth)
            checked += 1
    assert checked == 400


def test_fewest_actions_for_every_card_equal_a_search_to_full_depth():
    # Grids as integers (three bits a cell) so the search can go as deep as the farthest card.
    for grid, _ in positions(seed=2, count=2, size=1):
        fewest = _fewest_by_search(sum(f << 3 * c for c, f in enumerate(grid)))
        assert {card: distance(grid, PATTERNS[card]) for card in CARD_IDS} == fewest
        assert max(fewest.values()) >= 5  # the search went deep


def test_every_cards_table_of_layouts_gives_the_distances_of_a_search_to_full_depth():
    # What a hint worker holds from its start (`CardInfo.fill`, one table per layout of a card's kinds of stone),
    # and the same tables made one layout at a time as the searches meet them: against the breadth-first search on
    # one grid, and against each other on many.
    rng = random.Random(12)
    start = pack(encode(random_grid(rng)))
    fewest = _fewest_by_search(start)
    grids = [pack(encode(random_grid(rng))) for _ in range(60)]
    for card in CARD_IDS:
        pattern = PATTERNS[card]
        filled, met = CardInfo(pattern), CardInfo(pattern)
        filled.fill()
        counts = [STONE_COUNTS[k] for k in pattern.kinds]
        layouts = math.factorial(9) // math.prod(math.factorial(n) for n in [*counts, 9 - sum(counts)])
        assert len(filled.costs) == layouts, card
        assert filled.distance(start) == met.distance(start) == fewest[card], card
        for g in grids:
            assert filled.distance(g) == met.distance(g), (card, g)
        assert len(met.costs) <= 1 + len(grids)  # only the layouts met


def _fewest_by_search(start: int) -> dict[str, int]:
    checks = {
        card: [
            (sum(7 << 3 * c for c in pl.cells), sum(f << 3 * c for c, f in zip(pl.cells, pl.faces)))
            for pl in PATTERNS[card].placements
        ]
        for card in CARD_IDS
    }
    fewest: dict[str, int] = {}
    level, seen, depth = [start], {start}, 0
    while len(fewest) < len(CARD_IDS):
        for card in CARD_IDS:
            if card not in fewest and any(g & m == v for g in level for m, v in checks[card]):
                fewest[card] = depth
        nxt = []
        for g in level:
            for h in [g ^ (1 << 3 * c) for c in range(9)] + [_swapped(g, a, b) for a, b in SWAPS]:
                if h not in seen:
                    seen.add(h)
                    nxt.append(h)
        level, depth = nxt, depth + 1
    return fewest


def test_a_move_that_touches_no_stone_of_a_cards_kinds_leaves_its_distance_as_it_was():
    # Why the best-turn search may leave out such moves when every card that could still beat the bar is as far
    # as the moves left (`_TurnSearch._visit`): they cannot bring any of those cards nearer.
    rng = random.Random(21)
    untouched = 0
    for _ in range(400):
        grid = encode(random_grid(rng))
        pattern = PATTERNS[rng.choice(CARD_IDS)]
        before = distance(grid, pattern)
        for move in _MOVES:
            cells = [move.a] if move.b is None else [move.a, move.b]
            touched = {grid[c] >> 1 for c in cells}
            if move.b is not None and grid[move.a] == grid[move.b]:
                touched = set()  # two stones showing the same face: the swap changes nothing
            if not touched & pattern.kinds:
                untouched += 1
                assert distance(move.on(grid), pattern) == before, (grid, pattern.id, move)
    assert untouched > 2000


def test_the_moves_that_bring_a_card_nearer_are_exactly_those_after_which_its_distance_drops():
    # The search's rule for cards at the edge of reach (`CardInfo.nearer_moves`): such a card stays in reach after
    # a move only if the move brings it nearer, and the search tries no other move when the cards nearer than the
    # moves left could not beat the bar without it. Checked against the distance after each of the 21 moves.
    rng = random.Random(22)
    nearer = 0
    for _ in range(600):
        grid = encode(random_grid(rng))
        pattern = PATTERNS[rng.choice(CARD_IDS)]
        # A card's own caches empty: the rule itself, not an answer kept from before.
        info, g = CardInfo(pattern), pack(grid)
        moves = info.nearer_moves(g, _keyed(g, info.face_table))
        before = distance(grid, pattern)
        for k, move in enumerate(_MOVES):
            after = distance(move.on(grid), pattern)
            assert bool(moves >> k & 1) == (after < before), (grid, pattern.id, move)
            nearer += after < before
        assert before == 0 or moves, (grid, pattern.id)  # a card not showing can always be brought nearer
    assert nearer > 1500


def _swapped(g: int, a: int, b: int) -> int:
    diff = ((g >> 3 * a) ^ (g >> 3 * b)) & 7
    return g ^ (diff << 3 * a) ^ (diff << 3 * b)


def test_the_quick_one_move_test_agrees_with_the_distance():
    rng = random.Random(8)
    ones = 0
    for _ in range(3000):
        grid = encode(random_grid(rng))
        pattern = PATTERNS[rng.choice(CARD_IDS)]
        # A card's own caches empty: the test itself, not a distance worked out before.
        assert CardInfo(pattern).within_one(pack(grid)) == (distance(grid, pattern) <= 1), (grid, pattern.id)
        ones += distance(grid, pattern) == 1
    assert ones > 300


def test_the_route_is_as_short_as_the_distance_and_shows_the_card():
    for grid, cards in positions(seed=3, count=100, size=3):
        for card in cards:
            moves = route(grid, PATTERNS[card])
            assert len(moves) == distance(grid, PATTERNS[card])
            g = grid
            for move in moves:
                g = move.on(g)
            assert shows(g, card)


# -- the best turn ------------------------------------------------------------------------------------------------


def test_a_pair_of_moves_the_search_skips_gives_the_grid_of_a_pair_it_searches_first_or_no_change():
    rng = random.Random(17)
    grids = [pack(encode(random_grid(rng))) for _ in range(40)]
    moves = [Move(a, b) for a, b in SWAPS] + [Move(c) for c in range(9)]
    order = {m: k for k, m in enumerate(_MOVES)}
    assert set(order) == set(moves) and len(order) == 21

    def after(g: int, *pair: Move) -> int:
        for m in pair:
            g = apply_packed(g, m.a, m.b)
        return g

    skipped = 0
    for first in moves:
        for second in moves:
            if not _SKIP_AFTER[order[first]] >> order[second] & 1:
                continue
            skipped += 1
            key = (order[first], order[second])
            earlier = [(a, b) for a in moves for b in moves if (order[a], order[b]) < key]
            for g in grids:
                target = after(g, first, second)
                assert target == g or any(after(g, a, b) == target for a, b in earlier), (first, second)
    # Two moves on different cells in either order, a flip and a shift of the same stone, and the same move twice.
    assert skipped == 164 + 24 + 21


def test_counting_by_paths_is_the_same_as_playing_every_action():
    # The fast brute force below counts paths; this checks it against the literal one on smaller positions.
    for grid, hand in positions(seed=4, count=25, size=3) + positions(seed=5, count=6, size=4):
        assert brute_turn_by_paths(grid, hand) == brute_turn(grid, hand)


@pytest.mark.parametrize(("size", "count"), [(3, 150), (4, 200), (5, 12)])
def test_the_best_turn_equals_a_brute_force_search(size, count):
    better_than_one_card = 0
    for grid, hand in positions(seed=size, count=count, size=size):
        plan = best_turn(grid, [PATTERNS[c] for c in hand])
        assert (plan.points, len(plan.moves)) == brute_turn_by_paths(grid, hand), (grid, hand)
        better_than_one_card += len(plan.scores) > 1 and len(plan.moves) > 0
    assert better_than_one_card > 0  # some turns score several cards around moves


def test_the_best_turn_of_six_card_hands_equals_a_brute_force_search_and_beats_its_greedy_start():
    # The search starts its bound from a greedy plan; a plan as good with fewer moves, or a better one, must still
    # be found. Six hands of 6 (a second or two each for the brute force).
    improved = 0
    for grid, hand in positions(seed=61, count=6, size=6):
        patterns = [PATTERNS[c] for c in hand]
        plan = best_turn(grid, patterns)
        assert (plan.points, len(plan.moves)) == brute_turn_by_paths(grid, hand), (grid, hand)
        start = greedy_turn(grid, patterns)
        assert (start.points, -len(start.moves)) <= (plan.points, -len(plan.moves))
        improved += (start.points, -len(start.moves)) < (plan.points, -len(plan.moves))
    assert improved > 0


# The 8-card hands of bench/bench_shifting_stones.py (seed 9) that took the search longest, each with its most
# points and fewest moves for them. The greedy start has those points in all but the fourth, so nearly all the
# search does is prove that nothing beats it.
HARDEST_EIGHT = [
    ((6, 7, 3, 4, 1, 4, 6, 3, 5), ("SS30", "SS37", "SS44", "SS67", "SS09", "SS62", "SS18", "SS50"), 6, 5),
    ((2, 6, 7, 4, 1, 5, 6, 4, 3), ("SS70", "SS07", "SS57", "SS19", "SS43", "SS59", "SS41", "SS22"), 7, 4),
    ((7, 5, 5, 3, 4, 3, 7, 1, 7), ("SS62", "SS46", "SS08", "SS60", "SS30", "SS70", "SS17", "SS11"), 7, 5),
    ((6, 5, 5, 3, 4, 2, 6, 1, 6), ("SS66", "SS29", "SS62", "SS21", "SS06", "SS03", "SS23", "SS31"), 7, 5),
    ((6, 4, 5, 7, 6, 2, 2, 4, 1), ("SS34", "SS11", "SS03", "SS16", "SS60", "SS49", "SS35", "SS24"), 6, 4),
    ((6, 6, 1, 5, 5, 2, 4, 7, 3), ("SS07", "SS31", "SS61", "SS44", "SS28", "SS68", "SS37", "SS26"), 6, 5),
]


def test_the_hardest_eight_card_hands_are_searched_to_the_end_within_a_few_thousand_positions():
    # What the hint's time budget allows, counted in positions rather than milliseconds: these took 4,225-7,606
    # positions when a card at the edge of reach was tried with every move touching a stone of its cheapest ways,
    # and 1,226-2,108 with exactly the moves that bring it nearer (`CardInfo.nearer_moves`).
    for grid, hand, points, moves in HARDEST_EIGHT:
        plan, exact = best_turn_checked(grid, [PATTERNS[c] for c in hand], max_nodes=2_500)
        assert exact, hand
        assert (plan.points, len(plan.moves)) == (points, moves), hand


def test_a_search_cut_short_says_so_and_still_gives_a_playable_plan():
    cut = 0
    for grid, hand in positions(seed=9, count=30, size=6):
        patterns = [PATTERNS[c] for c in hand]
        plan, exact = best_turn_checked(grid, patterns, max_nodes=3)
        full = best_turn(grid, patterns)
        assert plan.points <= full.points
        cut += not exact
        if exact:
            assert plan == full
    assert cut > 0


def test_the_best_turn_plan_is_playable_and_scores_what_it_says():
    rng = random.Random(6)
    for _ in range(60):
        state = GAME.setup(GAME.make_config(2), random.Random(rng.random()))
        # Seat 0 holds 4 to 6 random cards (6 after a skip); the rest of the cards stay where they are.
        free = [c for c in CARD_IDS if c not in state.players[1].hand]
        hand = tuple(rng.sample(free, rng.choice([4, 5, 6])))
        players = (dataclasses.replace(state.players[0], hand=hand), state.players[1])
        state = dataclasses.replace(state, players=players, deck=tuple(c for c in free if c not in hand))
        points, actions, exact = turn_plan(state, 0)
        assert exact
        for action in actions:
            assert action in GAME.legal_actions(state, 0), action
            state = play(state, action)
        assert GAME.scores(state)["points"][0] == points


def test_each_cards_plan_spends_other_cards_and_scores_it():
    rng = random.Random(7)
    for _ in range(40):
        state = GAME.setup(GAME.make_config(2), random.Random(rng.random()))
        for card in state.players[0].hand:
            d, actions = card_plan(state, 0, card)
            assert d == distance(state.codes(), PATTERNS[card])
            if actions is None:
                assert d > 3
                continue
            after = state
            for action in actions:
                after = play(after, action)
            assert card in after.players[0].scored and len(actions) == d + 1


# -- the hints on a phone -----------------------------------------------------------------------------------------


def test_hints_name_the_seats_own_cards_and_the_best_turn():
    state = table(HANDS)
    hints = GAME.hints(state, 0)
    cards = {c["card"]: c for c in hints["cards"]}
    assert list(cards) == HANDS[0]
    assert cards["SS11"]["fewest_actions"] == 0 and cards["SS11"]["steps"] == ["score SS11"]
    # SS05 "bird horse": the bird is at the left of the middle row, a seed beside it; nothing is one move away.
    assert cards["SS05"]["fewest_actions"] == distance(state.codes(), PATTERNS["SS05"]) >= 1
    best = hints["best_turn"]
    assert best["points"] == brute_turn(state.codes(), HANDS[0])[0]
    assert best["exact"] and hints["your_turn"] is True
    assert all(a["seat"] == 0 for a in best["actions"])
    assert "SS14" not in str(hints)  # nothing of seat 1's hand


def test_a_card_too_far_for_the_hand_says_why():
    state = play(table(HANDS), ScoreCard(0, "SS11"), ScoreCard(0, "SS44"))
    hints = GAME.hints(state, 0)
    for entry in hints["cards"]:
        if entry["fewest_actions"] > 1:
            assert entry["this_turn"] is False and "only 1 other cards" in entry["why"]
        else:
            assert entry["this_turn"] is True


def test_hints_are_for_players_only_and_say_whose_turn_it_is():
    state = table(HANDS)
    assert GAME.hints(state, "table") == {}
    state = play(state, EndTurn(0))  # seat 0 still holds four cards: no draw, seat 1 plays
    assert GAME.hints(state, 1)["your_turn"] is True
    assert GAME.hints(state, 0)["your_turn"] is False and GAME.hints(state, 0)["cards"]
