"""The fewest shifts and flips that put a pattern card on the grid, exactly, and a shortest way to do it.

Why the distance formula is exact: a stone keeps its identity while it is shifted, and a flip only turns the
stone in a cell over. Any sequence of shifts and flips therefore moves each stone somewhere (the shifts) and
turns some stones over (the flips), and the two parts do not interact. To show a pattern at one placement, some
stones of the right kinds must end on its coloured squares: the flips needed are the chosen stones that show the
wrong face (one each), and the shifts needed are the fewest swaps of neighbours that bring those marked stones to
their squares while the other stones go anywhere. That last number comes from a breadth-first search over the
positions of the marked stones only (at most 9·8·7·6 = 3,024 states for the four coloured squares of the largest
cards), done once per set of target cells. The minimum over placements and choices of stones is the distance.

Inside the searches a grid is one integer, three bits per cell (cell 0 lowest), so that a placement matches when
`grid & mask == value` and a move is a couple of bit operations.
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
from collections import deque
from collections.abc import Callable, Sequence
from functools import cache

from companion.games.shifting_stones.patterns import CELLS, NEIGHBOURS, PATTERNS, STONE_COUNTS, Pattern, kind

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
        return unpack(apply_packed(pack(grid), self.a, self.b))


# Moves numbered as the best-turn search numbers them (and a set of moves is an int with a bit each): the shifts in
# the order of NEIGHBOURS (bits 0 to 11), then the flip of each cell (bit 12 + cell).
MOVES: tuple[Move, ...] = tuple(Move(a, b) for a, b in NEIGHBOURS) + tuple(Move(c) for c in CELLS)
_FLIPS_FROM = len(NEIGHBOURS)


def apply_packed(g: int, a: int, b: int | None) -> int:
    """The packed grid after the shift (a, b) or the flip of a (b is None)."""
    if b is None:
        return g ^ (1 << (3 * a))
    diff = ((g >> (3 * a)) ^ (g >> (3 * b))) & 7
    return g ^ (diff << (3 * a)) ^ (diff << (3 * b))


# -- marked stones: fewest swaps ------------------------------------------------------------------


_ADJACENT_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b if a == c else a for a, b in NEIGHBOURS if c in (a, b)) for c in CELLS
)


def _swap(positions: tuple[int, ...], u: int, v: int) -> tuple[int, ...]:
    return tuple(v if p == u else u if p == v else p for p in positions)


class _SwapBuild:
    """A breadth-first search from `targets` over the marked stones' positions, which can stop at a clock's word
    and go on later: the largest (four stones, 3,024 positions) takes over 10 ms, too long a step for a hint
    with a budget, and is built only once in a process."""

    def __init__(self, targets: tuple[int, ...]) -> None:
        self.dist: dict[tuple[int, ...], int] = {targets: 0}
        self.queue = deque([targets])

    def run(self, out_of_time: Callable[[], bool] | None = None) -> bool:
        """Search on until done (True) or until `out_of_time()`, asked every 64 positions, says stop (False)."""
        dist, queue = self.dist, self.queue
        count = 0
        while queue:
            if out_of_time is not None and not count & 63 and out_of_time():
                return False
            count += 1
            pos = queue.popleft()
            d = dist[pos] + 1
            for i, p in enumerate(pos):
                for n in _ADJACENT_CELLS[p]:
                    if n in pos:
                        j = pos.index(n)
                        if j < i:
                            continue  # the swap of two marked stones, already made from the other one
                        moved = list(pos)
                        moved[i], moved[j] = n, p
                    else:
                        moved = list(pos)
                        moved[i] = n
                    nxt = tuple(moved)
                    if nxt not in dist:
                        dist[nxt] = d
                        queue.append(nxt)
        return True


_SWAP_TABLES: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
_SWAP_BUILDS: dict[tuple[int, ...], _SwapBuild] = {}


def swap_table_ready(targets: tuple[int, ...], out_of_time: Callable[[], bool] | None = None) -> bool:
    """Builds the swap table for `targets` if need be, stopping when `out_of_time()` says so (the search done so
    far is kept for the next call): whether the table is complete."""
    if targets in _SWAP_TABLES:
        return True
    build = _SWAP_BUILDS.get(targets)
    if build is None:
        build = _SWAP_BUILDS[targets] = _SwapBuild(targets)
    if not build.run(out_of_time):
        return False
    _SWAP_TABLES[targets] = build.dist
    del _SWAP_BUILDS[targets]
    return True


def swap_table(targets: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """For marked stones bound for `targets` (in that order), the fewest swaps from every start position.

    Swapping two unmarked stones never helps, so only the marked positions are searched.
    """
    table = _SWAP_TABLES.get(targets)
    if table is None:
        swap_table_ready(targets)
        table = _SWAP_TABLES[targets]
    return table


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


def _row_tables(checks: Sequence[tuple[int, int]]) -> tuple[list[int], list[int], list[int]]:
    """Per row of the grid (9 bits), which placements (a bit each) the row's three faces agree with.

    A card shows when one placement agrees with all three rows: three look-ups and two ANDs, however many
    placements the card has (the search asks this at every position for every card near it).
    """
    tables = []
    for r in range(3):
        parts = [((mask >> (9 * r)) & 511, (value >> (9 * r)) & 511, 1 << bit)
                 for bit, (mask, value) in enumerate(checks)]
        # A placement with no square in this row agrees with every row; the others with the rows that have their
        # faces, whatever the free cells hold (each subset of the free bits once).
        table = [sum(flag for m, _, flag in parts if not m)] * 512
        for m, v, flag in parts:
            if not m:
                continue
            free = 511 & ~m
            sub = free
            while True:
                table[v | sub] |= flag
                if not sub:
                    break
                sub = (sub - 1) & free
        tables.append(table)
    return tables[0], tables[1], tables[2]


# The lowest three bits of each of the nine 4-bit fields of a card's key.
_KIND_BITS = sum(7 << (4 * c) for c in CELLS)
# Three cells (9 bits) to their faces' lowest bits (3 bits): which of a kind's two faces each stone shows.
_FACE_BITS: tuple[int, ...] = tuple(sum(((row >> (3 * i)) & 1) << i for i in range(3)) for row in range(512))
# Per card: for each choice of cells for its coloured squares (in the squares' order), the fewest swaps that bring
# those stones to some placement's squares, and the first placement that needs no more (built once per process).
_MERGED: dict[str, dict[tuple[int, ...], tuple[int, int]]] = {}
_SHARED: dict[int, int] = {}
# A choice of stones as one int (`CardInfo.costs`): its fewest swaps from bit _SWAPS_AT, its stones' cells in the
# squares' order from bit 18 (4 bits each, all of them under `_STONES`), its cells as bits from bit 9, and the
# lowest bits of the faces its squares want, in those cells, from bit 0.
_SWAPS_AT = 34
_STONES = (1 << 16) - 1


def _merged(pattern: Pattern) -> dict[tuple[int, ...], tuple[int, int]]:
    merged = _MERGED.get(pattern.id)
    if merged is None:
        merged = {}
        for index, placement in enumerate(pattern.placements):
            for sources, swaps in swap_table(placement.cells).items():
                old = merged.get(sources)
                if old is None or swaps < old[0]:
                    merged[sources] = (swaps, index)
        _MERGED[pattern.id] = merged
    return merged


class CardInfo:
    """What the search needs of a pattern card, precomputed."""

    def __init__(self, pattern: Pattern) -> None:
        self.pattern = pattern
        self.points = pattern.points
        self.kinds_mask = sum(1 << k for k in pattern.kinds)
        self.checks = tuple(
            (sum(7 << (3 * c) for c in p.cells), sum(f << (3 * c) for c, f in zip(p.cells, p.faces)))
            for p in pattern.placements
        )
        # Per placement: its mask and value, and the face wanted in each cell (by cell index).
        self.squares = tuple(
            (mask, value, tuple(dict(zip(p.cells, p.faces)).get(c, -1) for c in CELLS))
            for (mask, value), p in zip(self.checks, pattern.placements)
        )
        self.rows = _row_tables(self.checks)
        self.face_table, self.kind_table = _tables(self.kinds_mask)
        self.tables_ready = False
        self.merged: dict[tuple[int, ...], tuple[int, int]] = {}
        # The squares grouped by the kind of stone they need, with the faces' lowest bits, and how the stones chosen
        # group by group are put back in the squares' order (None: they already are).
        faces = pattern.placements[0].faces
        self.groups = tuple((k, tuple(faces[i] & 1 for i in idx)) for k, idx in _groups(faces))
        grouped = [i for _, idx in _groups(faces) for i in idx]
        self.reorder: Callable[[tuple[int, ...]], tuple[int, ...]] | None = (
            None if grouped == sorted(grouped) else operator.itemgetter(*(grouped.index(i) for i in range(len(faces)))))
        self.distances: dict[int, int] = {}
        self.near: dict[int, bool] = {}
        # Per key as in `within_one`: the moves that bring the card nearer (`nearer_moves`).
        self.nearer: dict[int, int] = {}
        # Per choice of stones (their cells, 4 bits each, as in `costs`): the swaps that take them a swap nearer
        # their squares (a bit each, numbered as in MOVES); the same for every grid, so never emptied.
        self.swaps_down: dict[int, int] = {}
        # Per layout of the card's kinds (faces aside): every choice of stones with its fewest swaps, the placement
        # they go to, and the cells and faces its flips count (bits per cell), cheapest first, so that a scan can
        # stop once the swaps alone cost too much.
        self.choices: dict[int, list[tuple[int, tuple[int, ...], int, int, int]]] = {}
        # The same for the distance alone, for every layout met or, in a hint worker, every layout there is.
        self.costs: dict[int, tuple[int, ...]] = {}

    def ready(self, out_of_time: Callable[[], bool] | None = None) -> bool:
        """Whether the swap tables of every placement are built (building them until `out_of_time()`): then a
        distance costs a fraction of a millisecond at most."""
        if self.tables_ready:
            return True
        for placement in self.pattern.placements:
            if not swap_table_ready(placement.cells, out_of_time):
                return False
        # Once the swap tables are built, at most a millisecond or so (the largest card's 12,096 entries).
        self.merged = _merged(self.pattern)
        self.tables_ready = True
        return True

    def shows(self, g: int) -> bool:
        low, middle, high = self.rows
        return bool(low[g & 511] & middle[(g >> 9) & 511] & high[g >> 18])

    def within_one(self, g: int, key: int | None = None) -> bool:
        """Whether the card shows now or after one shift or flip: quicker than the distance, for the last move
        (`key`: the grid's key for this card, `_keyed(g, self.face_table)`, when the caller has it)."""
        if key is None:
            key = _keyed(g, self.face_table)
        d = self.distances.get(key)
        if d is not None:
            return d <= 1
        near = self.near.get(key)
        if near is None:
            # The layout's choices, those of one swap at most (no other can cost one move or none).
            layout = (key >> 1) & _KIND_BITS
            costs = self.costs.get(layout)
            faces = _FACE_BITS[g & 511] | _FACE_BITS[(g >> 9) & 511] << 3 | _FACE_BITS[g >> 18] << 6
            near = False
            for cost in self._costs(g, layout) if costs is None else costs:
                swaps = cost >> _SWAPS_AT
                if swaps > 1:
                    break
                if swaps + ((faces ^ cost) & (cost >> 9) & 511).bit_count() <= 1:
                    near = True
                    break
            if len(self.near) >= _CACHE_LIMIT:
                self.near.clear()
            self.near[key] = near
        return near

    def distance(self, g: int, key: int | None = None) -> int:
        """The fewest moves that make the card show (`key` as in `within_one`)."""
        if key is None:
            key = _keyed(g, self.face_table)
        d = self.distances.get(key)
        if d is None:
            # route_parts without the route: the layout's key is the faces' key with each face turned to its kind
            # (a face code halved is its kind; a cell of another kind, 8, becomes 4 as in the kinds' table).
            faces = _FACE_BITS[g & 511] | _FACE_BITS[(g >> 9) & 511] << 3 | _FACE_BITS[g >> 18] << 6
            d = UNREACHABLE
            layout = (key >> 1) & _KIND_BITS
            costs = self.costs.get(layout)
            for cost in self._costs(g, layout) if costs is None else costs:
                swaps = cost >> _SWAPS_AT
                if swaps >= d:
                    break
                moves = swaps + ((faces ^ cost) & (cost >> 9) & 511).bit_count()
                if moves < d:
                    d = moves
            if len(self.distances) >= _CACHE_LIMIT:
                self.distances.clear()
            self.distances[key] = d
        return d

    def _layout_choices(self, g: int, key: int | None = None) -> list[tuple[int, tuple[int, ...], int, int, int]]:
        if key is None:
            key = _keyed(g, self.kind_table)
        found = self.choices.get(key)
        if found is None:
            found = self._choices(g)
            if len(self.choices) >= _CACHE_LIMIT:
                self.choices.clear()
            self.choices[key] = found
        return found

    def _choices(self, g: int) -> list[tuple[int, tuple[int, ...], int, int, int]]:
        """Every choice of stones for the card's squares on the layout of `g`, cheapest swaps first: (swaps, the
        stones' cells in the squares' order, the placement, those cells as bits, the wanted faces' lowest bits)."""
        if not self.tables_ready:
            self.ready()
        where: tuple[list[int], ...] = ([], [], [], [])
        for c in CELLS:
            where[(g >> (3 * c + 1)) & 3].append(c)
        # Every placement of a card asks for the same faces, so the choices of stones are the same, and so are
        # their flips: only the placement with the fewest swaps matters for each (`merged`, lowest index first).
        merged = self.merged
        per_kind = [_arranged(tuple(where[k]), bits) for k, bits in self.groups]
        if len(per_kind) == 1:
            combos = per_kind[0]
        else:
            reorder = self.reorder
            combos = []
            for parts in itertools.product(*per_kind):
                cells: tuple[int, ...] = ()
                mask = wanted = 0
                for part, part_mask, part_wanted in parts:
                    cells += part
                    mask |= part_mask
                    wanted |= part_wanted
                combos.append((cells if reorder is None else reorder(cells), mask, wanted))
        found = []
        for sources, mask, wanted in combos:
            swaps, index = merged[sources]
            found.append((swaps, sources, index, mask, wanted))
        found.sort()
        return found

    def _costs(self, g: int, key: int) -> tuple[int, ...]:
        """The layout of `g`'s choices as the distance needs them: each one int (see `_SWAPS_AT`), cheapest swaps
        first; only those whose swaps alone are at most the cheapest swaps plus a flip of every square (no other
        can be cheapest)."""
        costs = self.costs.get(key)
        if costs is None:
            found = self._choices(g)
            most = found[0][0] + len(self.pattern.placements[0].cells)
            # The same numbers recur in every layout of a card's kinds (and across cards): one object each (a
            # filled hint worker holds about 700,000 of them, some 15,000 different).
            costs = self.costs[key] = tuple(_SHARED.setdefault(cost, cost) for cost in (
                swaps << _SWAPS_AT | _stones_code(sources) << 18 | mask << 9 | wanted
                for swaps, sources, _, mask, wanted in found if swaps <= most))
        return costs

    def fill(self) -> None:
        """Works out `costs` for every layout of the card's kinds (what a hint worker holds from its start)."""
        if not self.tables_ready:
            self.ready()
        kinds = sorted(self.pattern.kinds)
        filler = next(k for k in range(4) if k not in kinds) << 1
        grid = [filler] * len(CELLS)

        def place(j: int, free: tuple[int, ...]) -> None:
            if j == len(kinds):
                g = pack(grid)
                self._costs(g, _keyed(g, self.kind_table))
                return
            for cells in itertools.combinations(free, STONE_COUNTS[kinds[j]]):
                for c in cells:
                    grid[c] = kinds[j] << 1
                place(j + 1, tuple(c for c in free if c not in cells))
                for c in cells:
                    grid[c] = filler

        place(0, CELLS)

    def nearer_moves(self, g: int, key: int) -> int:
        """The moves (a bit each, numbered as in MOVES) after which the card is one move nearer: exactly those, not
        a few more (`key` as in `within_one`).

        A move changes the cost of a choice of stones by one at most (a swap is one step of its stones' swaps, a
        flip turns one stone), and every choice after the move is the same stones chosen before it. So the card
        comes nearer exactly when a move makes a cheapest choice one cheaper: a swap that takes its stones a swap
        nearer their squares (`swaps_down`), or a flip of one of its stones showing the wrong face."""
        found = self.nearer.get(key)
        if found is None:
            d = self.distance(g, key)
            layout = (key >> 1) & _KIND_BITS
            costs = self.costs.get(layout)
            faces = _FACE_BITS[g & 511] | _FACE_BITS[(g >> 9) & 511] << 3 | _FACE_BITS[g >> 18] << 6
            found = 0
            for cost in self._costs(g, layout) if costs is None else costs:
                swaps = cost >> _SWAPS_AT
                if swaps > d:
                    break
                wrong = (faces ^ cost) & (cost >> 9) & 511
                if swaps + wrong.bit_count() == d:
                    stones = (cost >> 18) & _STONES
                    down = self.swaps_down.get(stones)
                    if down is None:
                        down = self._swaps_down(stones)
                    found |= down | wrong << _FLIPS_FROM
            if len(self.nearer) >= _CACHE_LIMIT:
                self.nearer.clear()
            self.nearer[key] = found
        return found

    def _swaps_down(self, stones: int) -> int:
        """The swaps (bits 0 to 11 of MOVES) after which the stones `stones` (as in `costs`) need one swap fewer."""
        if not self.tables_ready:
            self.ready()
        merged = self.merged
        sources = tuple((stones >> (4 * i)) & 15 for i in range(len(self.pattern.placements[0].cells)))
        swaps = merged[sources][0]
        down = 0
        for k, (u, v) in enumerate(NEIGHBOURS):
            if (u in sources or v in sources) and merged[_swap(sources, u, v)][0] < swaps:
                down |= 1 << k
        self.swaps_down[stones] = down
        return down

    def route_parts(self, g: int) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(distance, cells of the chosen stones, their target cells, the faces wanted) of a cheapest way."""
        placements = self.pattern.placements
        # The stones' faces, a bit per cell: a chosen stone is of the right kind, so it needs a flip when its bit
        # differs from the wanted face's.
        faces = _FACE_BITS[g & 511] | _FACE_BITS[(g >> 9) & 511] << 3 | _FACE_BITS[g >> 18] << 6
        best = UNREACHABLE
        best_choice: tuple[tuple[int, ...], int] = ((), 0)
        for swaps, sources, index, mask, wanted in self._layout_choices(g):
            if swaps >= best:
                break
            d = swaps + ((faces ^ wanted) & mask).bit_count()
            if d < best:
                best = d
                best_choice = (sources, index)
        sources, index = best_choice
        return best, sources, placements[index].cells, placements[index].faces


@cache
def _stones_code(sources: tuple[int, ...]) -> int:
    """The stones' cells as one int, 4 bits each, the first square's lowest (kept: a filled hint worker asks for
    about 700,000 of them, some 3,600 different)."""
    return sum(c << (4 * i) for i, c in enumerate(sources))


@cache
def _groups(faces: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The coloured squares grouped by the kind of stone they need: (kind, square indexes)."""
    by_kind: dict[int, list[int]] = {}
    for i, f in enumerate(faces):
        by_kind.setdefault(kind(f), []).append(i)
    return tuple((k, tuple(idx)) for k, idx in by_kind.items())


@cache
def _arranged(cells: tuple[int, ...], bits: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Every way to put distinct stones from `cells` on squares wanting faces with the lowest bits `bits`, as (the
    stones' cells in the squares' order, those cells as bits, the wanted faces' lowest bits in those cells)."""
    out = []
    for chosen in itertools.permutations(cells, len(bits)):
        mask = wanted = 0
        for c, bit in zip(chosen, bits):
            mask |= 1 << c
            wanted |= bit << c
        out.append((chosen, mask, wanted))
    return tuple(out)


_CARDS: dict[str, CardInfo] = {}


def card_info(pattern: Pattern) -> CardInfo:
    card = _CARDS.get(pattern.id)
    if card is None:
        card = _CARDS[pattern.id] = CardInfo(pattern)
    return card


def forget() -> None:
    """Empties the cards' caches of distances and stone choices (the bench: a search on a grid met before is
    cheaper than the first one on a new grid, which is what a table mostly asks). The layouts' tables (`costs`)
    stay: they hold for every grid, and a hint worker has them all from its start (`warm_up`)."""
    for card in _CARDS.values():
        card.distances.clear()
        card.near.clear()
        card.nearer.clear()
        card.choices.clear()


def distance(grid: Grid, pattern: Pattern) -> int:
    """The fewest shifts and flips after which the pattern shows on the grid (0 if it shows now)."""
    return card_info(pattern).distance(pack(grid))


def route(grid: Grid, pattern: Pattern) -> list[Move]:
    """A shortest list of moves after which the pattern shows on the grid ([] if it shows now)."""
    d, sources, targets, faces = card_info(pattern).route_parts(pack(grid))
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


def warm_up() -> None:
    """Build the swap tables for every placement of every card, and every card's table of choices for every layout
    of its kinds (`CardInfo.costs`: a second or so of CPU and 15-16 MB, once, in a hint worker as it starts)."""
    for pattern in PATTERNS.values():
        for placement in pattern.placements:
            swap_table(placement.cells)
        _merged(pattern)
    for pattern in PATTERNS.values():
        card_info(pattern).fill()
