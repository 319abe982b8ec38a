"""Exact search on the stones: the fewest shifts and flips that put a pattern on the grid, and the best turn.

Why the distance formula is exact: a stone keeps its identity while it is shifted, and a flip only turns the
stone in a cell over. Any sequence of shifts and flips therefore moves each stone somewhere (the shifts) and
turns some stones over (the flips), and the two parts do not interact. To show a pattern at one placement, some
stones of the right kinds must end on its coloured squares: the flips needed are the chosen stones that show the
wrong face (one each), and the shifts needed are the fewest swaps of neighbours that bring those marked stones to
their squares while the other stones go anywhere. That last number comes from a breadth-first search over the
positions of the marked stones only (at most 9·8·7·6 = 3,024 states for the four coloured squares of the largest
cards), done once per set of target cells. The minimum over placements and choices of stones is the distance.

Inside the search a grid is one integer, three bits per cell (cell 0 lowest), so that a placement matches when
`grid & mask == value` and a move is a couple of bit operations.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import deque
from collections.abc import Sequence
from functools import cache

from companion.games.shifting_stones.patterns import CELLS, NEIGHBOURS, Pattern, kind

Grid = tuple[int, ...]  # face codes, row-major, top left first

UNREACHABLE = 99
_CACHE_LIMIT = 1 << 18


def pack(grid: Sequence[int]) -> int:
    return sum(f << (3 * c) for c, f in enumerate(grid))


def unpack(packed: int) -> Grid:
    return tuple((packed >> (3 * c)) & 7 for c in CELLS)


@dataclasses.dataclass(frozen=True)
class Move:
    """A shift (swap cells `a` and `b`) or a flip (`b` is None: turn the stone in cell `a` over)."""

    a: int
    b: int | None = None

    @property
    def is_flip(self) -> bool:
        return self.b is None

    def on(self, grid: Grid) -> Grid:
        return unpack(_apply(pack(grid), self.a, self.b))


def _apply(g: int, a: int, b: int | None) -> int:
    if b is None:
        return g ^ (1 << (3 * a))
    diff = ((g >> (3 * a)) ^ (g >> (3 * b))) & 7
    return g ^ (diff << (3 * a)) ^ (diff << (3 * b))


MOVES: tuple[Move, ...] = tuple(Move(a, b) for a, b in NEIGHBOURS) + tuple(Move(c) for c in CELLS)


# -- marked stones: fewest swaps ------------------------------------------------------------------


def _swap(positions: tuple[int, ...], u: int, v: int) -> tuple[int, ...]:
    return tuple(v if p == u else u if p == v else p for p in positions)


@cache
def swap_table(targets: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """For marked stones bound for `targets` (in that order), the fewest swaps from every start position.

    Swapping two unmarked stones never helps, so only the marked positions are searched.
    """
    dist = {targets: 0}
    queue = deque([targets])
    while queue:
        pos = queue.popleft()
        d = dist[pos] + 1
        for u, v in NEIGHBOURS:
            if u in pos or v in pos:
                nxt = _swap(pos, u, v)
                if nxt not in dist:
                    dist[nxt] = d
                    queue.append(nxt)
    return dist


# -- one card ---------------------------------------------------------------------------------------


def _chunk_table(kinds_mask: int, faces: bool) -> tuple[int, ...]:
    """Maps three cells (9 bits) to their key bits: the face (or kind) for kinds the card shows, else 8 (or 4)."""
    table = []
    for chunk in range(512):
        out = 0
        for i in range(3):
            f = (chunk >> (3 * i)) & 7
            if kinds_mask >> kind(f) & 1:
                out |= (f if faces else kind(f)) << (4 * i)
            else:
                out |= (8 if faces else 4) << (4 * i)
        table.append(out)
    return tuple(table)


@cache
def _tables(kinds_mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return _chunk_table(kinds_mask, True), _chunk_table(kinds_mask, False)


def _keyed(g: int, table: tuple[int, ...]) -> int:
    return table[g & 511] | table[(g >> 9) & 511] << 12 | table[g >> 18] << 24


class _Card:
    """What the search needs of a pattern card, precomputed."""

    def __init__(self, pattern: Pattern) -> None:
        self.pattern = pattern
        self.points = pattern.points
        self.kinds_mask = sum(1 << k for k in pattern.kinds)
        self.checks = tuple(
            (sum(7 << (3 * c) for c in p.cells), sum(f << (3 * c) for c, f in zip(p.cells, p.faces)))
            for p in pattern.placements
        )
        self.face_table, self.kind_table = _tables(self.kinds_mask)
        self.distances: dict[int, int] = {}
        # Per layout of the card's kinds (faces aside): every placement and choice of stones with its swaps,
        # cheapest first, so that a scan can stop once the swaps alone cost too much.
        self.choices: dict[int, list[tuple[int, tuple[int, ...], int]]] = {}

    def shows(self, g: int) -> bool:
        # A plain loop: this is the search's innermost test, and any() over a generator is markedly slower.
        for mask, value in self.checks:  # noqa: SIM110
            if g & mask == value:
                return True
        return False

    def distance(self, g: int) -> int:
        key = _keyed(g, self.face_table)
        d = self.distances.get(key)
        if d is None:
            d = self.route_parts(g)[0]
            if len(self.distances) >= _CACHE_LIMIT:
                self.distances.clear()
            self.distances[key] = d
        return d

    def _layout_choices(self, g: int, grid: Grid) -> list[tuple[int, tuple[int, ...], int]]:
        key = _keyed(g, self.kind_table)
        found = self.choices.get(key)
        if found is None:
            where: dict[int, tuple[int, ...]] = {k: tuple(c for c in CELLS if grid[c] >> 1 == k) for k in range(4)}
            # Every placement of a card asks for the same faces, so the choices of stones are the same.
            choices = _choices(where, self.pattern.placements[0].faces)
            found = []
            for index, placement in enumerate(self.pattern.placements):
                table = swap_table(placement.cells)
                found += [(table[s], s, index) for s in choices]
            found.sort()
            if len(self.choices) >= _CACHE_LIMIT:
                self.choices.clear()
            self.choices[key] = found
        return found

    def route_parts(self, g: int) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(distance, cells of the chosen stones, their target cells, the faces wanted) of a cheapest way."""
        grid = unpack(g)
        placements = self.pattern.placements
        best = UNREACHABLE
        best_choice: tuple[tuple[int, ...], int] = ((), 0)
        for swaps, sources, index in self._layout_choices(g, grid):
            if swaps >= best:
                break
            d = swaps
            for s, f in zip(sources, placements[index].faces):
                if grid[s] != f:
                    d += 1
            if d < best:
                best = d
                best_choice = (sources, index)
        sources, index = best_choice
        return best, sources, placements[index].cells, placements[index].faces


@cache
def _groups(faces: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The coloured squares grouped by the kind of stone they need: (kind, square indexes)."""
    by_kind: dict[int, list[int]] = {}
    for i, f in enumerate(faces):
        by_kind.setdefault(kind(f), []).append(i)
    return tuple((k, tuple(idx)) for k, idx in by_kind.items())


@cache
def _arrangements(cells: tuple[int, ...], count: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(cells, count))


def _choices(where: dict[int, tuple[int, ...]], faces: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to choose distinct stones of the right kinds for the coloured squares, as their cells.

    `where` lists the cells holding each kind of stone.
    """
    groups = _groups(faces)
    per_kind = [_arrangements(where[k], len(idx)) for k, idx in groups]
    if len(groups) == 1:
        return list(per_kind[0])
    out = []
    for combo in itertools.product(*per_kind):
        sources = [0] * len(faces)
        for (_, idx), cells in zip(groups, combo):
            for i, c in zip(idx, cells):
                sources[i] = c
        out.append(tuple(sources))
    return out


_CARDS: dict[str, _Card] = {}


def _card(pattern: Pattern) -> _Card:
    card = _CARDS.get(pattern.id)
    if card is None:
        card = _CARDS[pattern.id] = _Card(pattern)
    return card


def distance(grid: Grid, pattern: Pattern) -> int:
    """The fewest shifts and flips after which the pattern shows on the grid (0 if it shows now)."""
    return _card(pattern).distance(pack(grid))


def route(grid: Grid, pattern: Pattern) -> list[Move]:
    """A shortest list of moves after which the pattern shows on the grid ([] if it shows now)."""
    d, sources, targets, faces = _card(pattern).route_parts(pack(grid))
    table = swap_table(targets)
    pos = sources
    moves: list[Move] = []
    while table[pos]:
        for u, v in NEIGHBOURS:
            if u in pos or v in pos:
                nxt = _swap(pos, u, v)
                if table.get(nxt, UNREACHABLE) == table[pos] - 1:
                    moves.append(Move(u, v))
                    pos = nxt
                    break
    # Flip each chosen stone showing the wrong face, once it stands on its square.
    moves += [Move(t) for t, s, f in zip(targets, sources, faces) if grid[s] != f]
    assert len(moves) == d
    return moves


# -- the best turn --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Plan:
    """A turn: the moves in order, and for each card scored, the number of moves made before scoring it.

    Cards are indexes into the hand searched; every move spends one of the hand's other cards.
    """

    points: int
    moves: tuple[Move, ...]
    scores: tuple[tuple[int, int], ...]  # (moves made before, card index), in playing order

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(i for _, i in self.scores)


def _top(points: Sequence[int], members: int, slots: int) -> tuple[int, tuple[int, ...]]:
    """The most points from at most `slots` of the cards in the bit set `members`, and which cards."""
    if slots <= 0 or not members:
        return 0, ()
    chosen = sorted((i for i in range(len(points)) if members >> i & 1), key=lambda i: (-points[i], i))[:slots]
    return sum(points[i] for i in chosen), tuple(chosen)


def _top_points(order: Sequence[int], points: Sequence[int], members: int, slots: int) -> int:
    """Like _top, points only, with the cards already ordered best first (the search's hot path)."""
    total = 0
    for i in order:
        if slots <= 0:
            break
        if members >> i & 1:
            total += points[i]
            slots -= 1
    return total


_SHIFT_PAIRS: tuple[tuple[int, int], ...] = tuple(NEIGHBOURS)


class _OutOfNodes(Exception):
    pass


class _TurnSearch:
    """Depth-first branch and bound over move sequences, one total number of moves L at a time (L = 0, 1, ...).

    A turn with L moves leaves H - L cards to score (H: the hand size), and each card may score at any point of
    the path where it shows. Trying L in increasing order makes the first plan found at the best score also one
    with the fewest moves, and lets round L look only for plans of exactly L moves (shorter ones were already
    tried with more cards to spare). A node is (grid, moves made m, cards that have shown on this path); its bound
    counts the cards that have shown or lie within L - m moves, best H - L of them.
    """

    def __init__(self, grid: Grid, hand: Sequence[Pattern], max_nodes: int) -> None:
        self.start = pack(grid)
        self.cards = [_card(p) for p in hand]
        self.points = [p.points for p in hand]
        self.size = len(hand)
        self.order = sorted(range(self.size), key=lambda i: (-self.points[i], i))
        self.best: Plan = Plan(0, (), ())
        self.nodes = 0
        self.max_nodes = max_nodes
        self.exact = True

    def run(self) -> Plan:
        try:
            return self._run()
        except _OutOfNodes:
            self.exact = False
            return self.best

    def _run(self) -> Plan:
        reach = [c.distance(self.start) for c in self.cards]
        for limit in range(self.size):
            slots = self.size - limit
            members = sum(1 << i for i in range(self.size) if reach[i] <= limit)
            if _top(self.points, members, slots)[0] <= self.best.points:
                continue
            if slots == 1:
                # One card to score: the nearest route to the best card within reach is the plan.
                i = max((i for i in range(self.size) if members >> i & 1), key=lambda i: (self.points[i], -reach[i]))
                moves = tuple(route(unpack(self.start), self.cards[i].pattern))
                self.best = Plan(self.points[i], moves, ((len(moves), i),))
                break
            self.limit = limit
            self.slots = slots
            self.seen: dict[tuple[int, int], int] = {}
            # At the root each card's distance is known exactly; the search keeps bounds on it (see _visit).
            around = [(i, reach[i] + 1, reach[i] - 1) for i in range(self.size)]
            self._visit(self.start, 0, 0, [], [-1] * self.size, around)
        return self.best

    def _visit(
        self, g: int, moves: int, shown: int, path: list[Move], first: list[int], around: list[tuple[int, int, int]]
    ) -> None:
        """`around` holds (card, lowest, highest) distances at the previous position, for the cards near it.

        One move changes a distance by at most one, so a card too far before is still too far now, and a card
        well within reach before still is: only cards at the edge need their distance worked out.
        """
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        cards = self.cards
        # Only a card near the previous position can show now (it was within the moves left, one of them made).
        newly = 0
        for i, _, _ in around:
            if not shown >> i & 1 and cards[i].shows(g):
                newly |= 1 << i
        if newly:
            first = list(first)
            for i in range(self.size):
                if newly >> i & 1:
                    first[i] = moves
            shown |= newly
        if moves == self.limit:
            value, chosen = _top(self.points, shown, self.slots)
            if value > self.best.points:
                self.best = Plan(value, tuple(path), tuple(sorted((first[i], i) for i in chosen)))
            return
        key = (g, shown)
        if self.seen.get(key, UNREACHABLE) <= moves:
            return
        self.seen[key] = moves
        spare = self.limit - moves
        near: list[int] = []
        bounds: list[tuple[int, int, int]] = []
        for i, low, high in around:
            if shown >> i & 1:
                continue
            low = max(low - 1, 1)
            high += 1
            if low > spare:
                continue
            if high > spare:
                low = high = cards[i].distance(g)
                if low > spare:
                    continue
            near.append(i)
            bounds.append((i, low, high))
        # Continuations that add exactly one more card to the cards scored need no search: the card's own
        # shortest route finishes the plan.
        for i in near:
            if _top_points(self.order, self.points, shown | 1 << i, self.slots) <= self.best.points:
                continue
            value, chosen = _top(self.points, shown | 1 << i, self.slots)
            if i in chosen:
                tail = route(unpack(g), cards[i].pattern)
                scores = [(first[j], j) for j in chosen if j != i] + [(moves + len(tail), i)]
                self.best = Plan(value, (*path, *tail), tuple(sorted(scores)))
        # The rest must add at least two more cards: the two best near cards and the best others that fit.
        if len(near) < 2:
            return
        near.sort(key=lambda i: (-self.points[i], i))
        two = self.points[near[0]] + self.points[near[1]]
        rest = shown | sum(1 << i for i in near[2:])
        if two + _top_points(self.order, self.points, rest, self.slots - 2) <= self.best.points:
            return
        live = 0
        for i in near:
            live |= cards[i].kinds_mask
        # A move that touches no stone of a kind some reachable card shows only spends a card.
        faces = [(g >> (3 * c)) & 7 for c in CELLS]
        if spare == 1:
            self._last_move(g, moves, shown, path, first, near, live, faces)
            return
        for a, b in _SHIFT_PAIRS:
            fa, fb = faces[a], faces[b]
            if fa != fb and (live >> (fa >> 1) & 1 or live >> (fb >> 1) & 1):
                diff = fa ^ fb
                path.append(Move(a, b))
                self._visit(g ^ (diff << (3 * a)) ^ (diff << (3 * b)), moves + 1, shown, path, first, bounds)
                path.pop()
        for c in CELLS:
            if live >> (faces[c] >> 1) & 1:
                path.append(Move(c))
                self._visit(g ^ (1 << (3 * c)), moves + 1, shown, path, first, bounds)
                path.pop()

    def _last_move(
        self,
        g: int,
        moves: int,
        shown: int,
        path: list[Move],
        first: list[int],
        near: list[int],
        live: int,
        faces: list[int],
    ) -> None:
        """The final move when it must show at least two more cards at once (the leaves, without recursion)."""
        cards = self.cards
        children = [(a, b, faces[a] ^ faces[b]) for a, b in _SHIFT_PAIRS if faces[a] != faces[b]]
        children += [(c, None, 1) for c in CELLS]
        for a, b, diff in children:
            if not (live >> (faces[a] >> 1) & 1 or (b is not None and live >> (faces[b] >> 1) & 1)):
                continue
            child = g ^ (diff << (3 * a)) if b is None else g ^ (diff << (3 * a)) ^ (diff << (3 * b))
            newly = 0
            for i in near:
                if cards[i].shows(child):
                    newly |= 1 << i
            if newly & (newly - 1) == 0:
                continue  # one card or none: the single-card continuations covered that
            value, chosen = _top(self.points, shown | newly, self.slots)
            if value > self.best.points:
                move = Move(a, b)
                scores = [(first[i] if shown >> i & 1 else moves + 1, i) for i in chosen]
                self.best = Plan(value, (*path, move), tuple(sorted(scores)))


# Far more than any hand of up to 8 cards needs (a few thousand); a hand grown larger by skips could need more.
MAX_NODES = 200_000


def best_turn(grid: Grid, hand: Sequence[Pattern], max_nodes: int = MAX_NODES) -> Plan:
    """The most points this hand can score this turn, with the fewest moves among such turns.

    Each move spends a hand card, and a spent card can no longer score; cards may score at any point.
    """
    return _TurnSearch(grid, hand, max_nodes).run()


def best_turn_checked(grid: Grid, hand: Sequence[Pattern], max_nodes: int = MAX_NODES) -> tuple[Plan, bool]:
    """The best turn and whether the search finished (it is then exact) within `max_nodes` positions."""
    search = _TurnSearch(grid, hand, max_nodes)
    plan = search.run()
    return plan, search.exact


def search_nodes(grid: Grid, hand: Sequence[Pattern]) -> int:
    """How many positions the best-turn search visits (for the benchmark)."""
    search = _TurnSearch(grid, hand, MAX_NODES)
    search.run()
    return search.nodes


def warm_up() -> None:
    """Build the swap tables for every placement of every card (a few hundred milliseconds, once)."""
    from companion.games.shifting_stones.patterns import PATTERNS

    for pattern in PATTERNS.values():
        for placement in pattern.placements:
            swap_table(placement.cells)
