"""The best turn: the most points a hand can score this turn (fewest moves among such turns), by exact search.

Every shift or flip spends one of the hand's cards, and a spent card can no longer score; a card may score at
any point of the turn where its pattern shows. The search walks move sequences with a bound from the exact
per-card distances (distance.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from companion.games.shifting_stones.distance import (
    MOVES,
    CardInfo,
    Grid,
    Move,
    apply_packed,
    card_info,
    pack,
    route,
    unpack,
)
from companion.games.shifting_stones.patterns import CELLS, NEIGHBOURS, Pattern


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


def _effect(moves: Sequence[Move]) -> tuple[tuple[int, int], ...]:
    """What a sequence of moves does to any grid: for each cell, the cell its stone came from and whether it turned."""
    cells = [(c, 0) for c in CELLS]
    for m in moves:
        if m.b is None:
            source, turned = cells[m.a]
            cells[m.a] = (source, turned ^ 1)
        else:
            cells[m.a], cells[m.b] = cells[m.b], cells[m.a]
    return tuple(cells)


def _skips_after() -> tuple[int, ...]:
    """For each move, the moves (a bit each) never searched right after it unless a card newly showed between:
    the pairs that give the same grid as a pair earlier in the search's order (two moves on different cells in
    the other order; a flip then a shift of that stone, as the shift then the flip), or no change at all."""
    count = len(_MOVES)
    same: dict[tuple[tuple[int, int], ...], list[tuple[int, int]]] = {}
    for i in range(count):
        for j in range(count):
            same.setdefault(_effect((_MOVES[i], _MOVES[j])), []).append((i, j))
    nothing = _effect(())
    return tuple(
        sum(1 << j for j in range(count)
            if _effect((_MOVES[i], _MOVES[j])) == nothing or min(same[_effect((_MOVES[i], _MOVES[j]))]) < (i, j))
        for i in range(count)
    )


# Moves numbered as the search tries them: the shifts, then the flips (as `CardInfo.nearer_moves` numbers them).
_MOVES: tuple[Move, ...] = MOVES
_SKIP_AFTER: tuple[int, ...] = _skips_after()
_ALL_MOVES = (1 << len(_MOVES)) - 1


class _OutOfNodes(Exception):
    pass


class _TurnSearch:
    """Depth-first branch and bound over move sequences, one total number of moves L at a time (L = 0, 1, ...).

    A turn with L moves leaves H - L cards to score (H: the hand size), and each card may score at any point of
    the path where it shows. Trying L in increasing order makes the first plan found at the best score also one
    with the fewest moves, and lets round L look only for plans of exactly L moves (shorter ones were already
    tried with more cards to spare). A node is (grid, moves made m, cards that have shown on this path); its bound
    counts the cards that have shown or lie within L - m moves, best H - L of them. A card exactly L - m moves
    away stays within reach after a move only if the move brings it nearer, and exactly which moves do is known
    (`CardInfo.nearer_moves`): so a move is searched only if the cards it leaves within reach could beat the bar.
    That finds most hopeless positions a move before reaching them: on the bench's hardest 8-card hands, whose
    greedy start is already best, the search visits a third of the positions that a looser test (any move
    touching a stone of a cheapest way) left it.

    Two moves in a row that give the same grid as another pair earlier in the search's order (or no change) are
    not searched when no card newly showed between them (`_SKIP_AFTER`): the other order shows every card this
    one does, with as many moves. Why nothing is lost: of the best plans with the fewest moves, take the first in
    the search's order. Reordering such a pair in it would give a plan as good, as short and earlier, so it has
    none; a move in it that touches no stone of a card still in reach could be dropped for a shorter plan, so it
    has none of those either; a position of it found already searched would give, with the same moves after it,
    a plan as good and earlier (or shorter); and the bounds cut only positions from which no plan beats the bar,
    which that plan does until it is found. So the search walks that plan.
    """

    def __init__(
        self, grid: Grid, hand: Sequence[Pattern], max_nodes: int, out_of_time: Callable[[], bool] | None = None
    ) -> None:
        self.start = pack(grid)
        self.hand = hand
        # Filled in by _prepare, a card at a time (a card's tables may take a step of their own in a new process).
        self.cards: list[CardInfo] = []
        self.rows: list[tuple[list[int], list[int], list[int]]] = []
        self.points = [p.points for p in hand]
        self.size = len(hand)
        self.order = sorted(range(self.size), key=lambda i: (-self.points[i], i))
        self.best: Plan = Plan(0, (), ())
        # The score a plan must beat to be taken (the best plan's points, or one less before a seed's round).
        self.bar = 0
        self.seed: Plan | None = None
        self.nodes = 0
        self.max_nodes = max_nodes
        self.out_of_time = out_of_time
        self.clock_mask = 15 if self.size <= 8 else 0
        self.exact = True
        self.reach: list[int] = []
        # `_two_more`'s answers for the current bar and round, by the cards shown and the near cards.
        self.verdicts: dict[int, bool] = {}

    def _found(self, plan: Plan) -> None:
        self.best = plan
        self.bar = plan.points
        self.seed = None
        self.verdicts.clear()

    def _check(self) -> None:
        """Stops the search when the clock says so: asked before each step of the work outside the search proper
        (a card made ready, a card's distance, a step of the greedy walk), each a fraction of a millisecond."""
        if self.out_of_time is not None and self.out_of_time():
            raise _OutOfNodes

    def _prepare(self) -> None:
        """Each card's tables, and its distance from the start, a card at a time."""
        for pattern in self.hand:
            self._check()
            card = card_info(pattern)
            if not card.ready(self.out_of_time):
                raise _OutOfNodes
            self.cards.append(card)
            self.rows.append(card.rows)
        for card in self.cards:
            self._check()
            self.reach.append(card.distance(self.start))

    def run(self) -> Plan:
        try:
            return self._run()
        except _OutOfNodes:
            self.exact = False
            fallback = self._fallback()
            return fallback if fallback.points > self.best.points else self.best

    def _fallback(self) -> Plan:
        """A plan that needs no search, for a search cut short: score what shows now, or the best card in reach
        (among the cards made ready and measured before the time was up)."""
        low, middle, high = self.start & 511, (self.start >> 9) & 511, self.start >> 18
        now = [i for i, (a, b, c) in enumerate(self.rows) if a[low] & b[middle] & c[high]]
        plan = Plan(sum(self.points[i] for i in now), (), tuple((0, i) for i in now))
        reach = self.reach
        within = [i for i in range(len(reach)) if 0 < reach[i] <= self.size - 1]
        if within:
            i = max(within, key=lambda i: (self.points[i], -reach[i], -i))
            if self.points[i] > plan.points:
                moves = tuple(route(unpack(self.start), self.cards[i].pattern))
                plan = Plan(self.points[i], moves, ((len(moves), i),))
        return plan

    def _greedy(self) -> Plan:
        """A good plan found without search, to start the search's bound high: for each card as the first goal,
        walk its shortest route and then the nearest card's, again and again, keeping the best point on the way.

        A large hand's walks cost its size cubed: they share the search's budget (each step a position, each
        distance a look at the clock); walks cut short leave the best plan found so far in `self.best`."""
        best = Plan(0, (), ())
        rows, cards, points, size = self.rows, self.cards, self.points, self.size
        start_shown = 0
        low, middle, high = self.start & 511, (self.start >> 9) & 511, self.start >> 18
        for i in range(size):
            a, b, c = rows[i]
            if a[low] & b[middle] & c[high]:
                start_shown |= 1 << i
        for goal in range(size):
            if start_shown >> goal & 1:
                continue
            g, shown, path = self.start, start_shown, []
            first = [0 if start_shown >> i & 1 else -1 for i in range(size)]
            target = goal
            while True:
                self.nodes += 1
                if self.nodes > self.max_nodes:
                    raise _OutOfNodes
                self._check()
                if len(path) + cards[target].distance(g) >= size:
                    break
                tail = route(unpack(g), cards[target].pattern)
                for move in tail:
                    g = apply_packed(g, move.a, move.b)
                    path.append(move)
                    low, middle, high = g & 511, (g >> 9) & 511, g >> 18
                    for i in range(size):
                        if not shown >> i & 1:
                            a, b, c = rows[i]
                            if a[low] & b[middle] & c[high]:
                                shown |= 1 << i
                                first[i] = len(path)
                value, chosen = _top(points, shown, size - len(path))
                if value > best.points or (value == best.points and len(path) < len(best.moves)):
                    best = self.best = Plan(value, tuple(path), tuple(sorted((first[i], i) for i in chosen)))
                nearest: tuple[int, int, int] | None = None
                for i in range(size):
                    if not shown >> i & 1:
                        self._check()
                        key = (cards[i].distance(g), -points[i], i)
                        if nearest is None or key < nearest:
                            nearest = key
                if nearest is None:
                    break
                target = nearest[2]
        return best

    def _run(self) -> Plan:
        self._prepare()
        reach = self.reach
        # Positions searched, with the most moves that were left after them, kept from one round to the next: a
        # later round has a card fewer to score and a bar at least as high, so a position searched before with as
        # many moves left cannot lead to anything better now.
        self.seen: dict[int, int] = {}
        seed = self._greedy()
        if seed.points > 0:
            self.best = self.seed = seed
        for limit in range(self.size):
            if self.seed is not None:
                # Before the seed's own number of moves, a plan as good as it is better (it needs fewer moves).
                self.bar = self.seed.points - (limit < len(self.seed.moves))
            slots = self.size - limit
            members = sum(1 << i for i in range(self.size) if reach[i] <= limit)
            if _top(self.points, members, slots)[0] <= self.bar:
                continue
            if slots == 1:
                # One card to score: the nearest route to the best card within reach is the plan.
                i = max((i for i in range(self.size) if members >> i & 1), key=lambda i: (self.points[i], -reach[i]))
                moves = tuple(route(unpack(self.start), self.cards[i].pattern))
                self._found(Plan(self.points[i], moves, ((len(moves), i),)))
                break
            self.limit = limit
            self.slots = slots
            self.verdicts.clear()
            # At the root each card's distance is known exactly; the search keeps bounds on it (see _visit).
            around = [(i, reach[i] + 1, reach[i] - 1) for i in range(self.size)]
            self._visit(self.start, 0, 0, [], [-1] * self.size, around, -1)
        return self.best

    def _visit(
        self,
        g: int,
        moves: int,
        shown: int,
        path: list[Move],
        first: list[int],
        around: list[tuple[int, int, int]],
        last: int,
    ) -> None:
        """`around` holds (card, lowest, highest) distances at the previous position, for the cards near it, and
        `last` the number of the move made to get here (in `_MOVES`; -1 at the start).

        One move changes a distance by at most one, so a card too far before is still too far now, and a card
        well within reach before still is: only cards at the edge need their distance worked out.
        """
        self.nodes += 1
        # The clock is read every 16 positions of a hand of up to 8 cards (a few tenths of a millisecond of search;
        # reading it at every one cost a twentieth of the search), at every position of a larger hand (one position
        # of a 68-card hand can take a millisecond).
        if not self.nodes & self.clock_mask:
            if self.nodes > self.max_nodes:
                raise _OutOfNodes
            if self.out_of_time is not None and self.out_of_time():
                raise _OutOfNodes
        cards = self.cards
        # Only a card near the previous position can show now (it was within the moves left, one of them made).
        newly = 0
        rows = self.rows
        r0, r1, r2 = g & 511, (g >> 9) & 511, g >> 18  # the grid's rows, each 9 bits
        for i, low, _ in around:
            if low <= 1 and not shown >> i & 1:  # a card two moves away or more before this move does not show
                a, b, c = rows[i]
                if a[r0] & b[r1] & c[r2]:
                    newly |= 1 << i
        if newly:
            first = list(first)
            for i in range(self.size):
                if newly >> i & 1:
                    first[i] = moves
            shown |= newly
        if moves == self.limit:
            value, chosen = _top(self.points, shown, self.slots)
            if value > self.bar:
                self._found(Plan(value, tuple(path), tuple(sorted((first[i], i) for i in chosen))))
            return
        key = g | shown << 27  # one integer: the grid's 27 bits, then the cards shown
        spare = self.limit - moves
        if self.seen.get(key, 0) >= spare:
            return
        self.seen[key] = spare
        near: list[int] = []
        near_bits = 0
        bounds: list[tuple[int, int, int]] = []
        # The cards exactly as far as the moves left, with their keys (`CardInfo.nearer_moves`).
        edges: list[tuple[int, CardInfo, int]] = []
        for i, low, high in around:
            if shown >> i & 1:
                continue
            low = low - 1 if low > 2 else 1
            high += 1
            if low > spare:
                continue
            if high > spare:
                # The cards' caches read here directly (CardInfo.distance and within_one, without their calls).
                card = cards[i]
                table = card.face_table
                face_key = table[r0] | table[r1] << 12 | table[r2] << 24
                d = card.distances.get(face_key)
                if spare == 1:
                    # The deepest nodes are the most numerous: a direct one-move test spares the distance.
                    if d is None:
                        one = card.near.get(face_key)
                        if not (card.within_one(g, face_key) if one is None else one):
                            continue
                    elif d > 1:
                        continue
                    low = high = 1
                else:
                    if d is None:
                        d = card.distance(g, face_key)
                    if d > spare:
                        continue
                    low = high = d
                    if d == spare:
                        edges.append((i, card, face_key))
            elif low == spare and spare > 1:  # known exactly at the start of the search
                card = cards[i]
                table = card.face_table
                edges.append((i, card, table[r0] | table[r1] << 12 | table[r2] << 24))
            near.append(i)
            near_bits |= 1 << i
            bounds.append((i, low, high))
        # With no card newly shown here, the previous position already tried each of these cards (they were within
        # one move more of it, with the same cards shown): only the first position and new cards shown need it.
        if near and (newly or not moves):
            self._one_more(g, moves, shown, path, first, near)
        # The rest must add at least two more cards: the two best near cards and the best others that fit.
        if not self._two_more(shown, near_bits):
            return
        if spare == 1:
            self._last_move(g, moves, shown, path, first, near, *self._moves_from(g, near, newly, last))
            return
        # A card as far as the moves left is still in reach after a move only if the move brings it nearer
        # (`CardInfo.nearer_moves`, exactly those moves). So unless the cards nearer than that could beat the bar
        # by themselves, a move is searched only if it brings near enough of them to: the moves are grouped by the
        # cards at the edge they bring nearer, and each group tested as a whole.
        allowed = _ALL_MOVES
        closer = near_bits
        for i, _, _ in edges:
            closer ^= 1 << i
        if edges and not self._two_more(shown, closer):
            groups = [(0, _ALL_MOVES)]  # (cards at the edge brought nearer, the moves that do it)
            for i, card, face_key in edges:
                nearer = card.nearer.get(face_key)
                if nearer is None:
                    nearer = card.nearer_moves(g, face_key)
                split = []
                for brought, among in groups:
                    inside = among & nearer
                    if inside:
                        split.append((brought | 1 << i, inside))
                    if among ^ inside:
                        split.append((brought, among ^ inside))
                groups = split
            allowed = 0
            for brought, among in groups:
                if brought and self._two_more(shown, closer | brought):
                    allowed |= among
            if not allowed:
                return
        live, faces, skip = self._moves_from(g, near, newly, last)
        if spare == 2:
            self._before_last(g, moves, shown, path, first, bounds, live, faces, skip, allowed)
            return
        for k, (a, b) in enumerate(_SHIFT_PAIRS):
            fa, fb = faces[a], faces[b]
            if fa != fb and (live >> (fa >> 1) & 1 or live >> (fb >> 1) & 1) and not skip >> k & 1 and (
                    allowed >> k & 1):
                diff = fa ^ fb
                path.append(_MOVES[k])
                self._visit(g ^ (diff << (3 * a)) ^ (diff << (3 * b)), moves + 1, shown, path, first, bounds, k)
                path.pop()
        for c in CELLS:
            if live >> (faces[c] >> 1) & 1 and not skip >> (12 + c) & 1 and allowed >> (12 + c) & 1:
                path.append(_MOVES[12 + c])
                self._visit(g ^ (1 << (3 * c)), moves + 1, shown, path, first, bounds, 12 + c)
                path.pop()

    def _moves_from(self, g: int, near: list[int], newly: int, last: int) -> tuple[int, list[int], int]:
        """What picks the moves worth trying from a position: the kinds of stone the near cards show (a move that
        touches no stone of those kinds only spends a card), the grid's faces, and the moves after `last` that
        give the grid of a pair searched before."""
        cards = self.cards
        live = 0
        for i in near:
            live |= cards[i].kinds_mask
        # Two moves on different cells give the same grid in either order; with no card newly shown between
        # them, only the order with the lower move first is searched (`skip`: the moves whose other order is).
        skip = 0 if newly or last < 0 else _SKIP_AFTER[last]
        return live, [(g >> (3 * c)) & 7 for c in CELLS], skip

    def _one_more(self, g: int, moves: int, shown: int, path: list[Move], first: list[int], near: list[int]) -> None:
        """Continuations that add exactly one more card to the cards scored need no search: the card's own
        shortest route finishes the plan."""
        # What the cards shown score now, and the least of them that counts: one card more scores at most that
        # plus its own points above the least (a quick test for each near card before the exact one).
        points = self.points
        now = 0
        least = 0
        room = self.slots
        for j in self.order:
            if shown >> j & 1:
                if room == 0:
                    break
                now += points[j]
                least = points[j]
                room -= 1
        if room > 0:
            least = 0
        for i in near:
            gain = points[i] - least
            if gain <= 0 or now + gain <= self.bar:
                continue
            value, chosen = _top(points, shown | 1 << i, self.slots)
            if i in chosen:
                tail = route(unpack(g), self.cards[i].pattern)
                scores = [(first[j], j) for j in chosen if j != i] + [(moves + len(tail), i)]
                self._found(Plan(value, (*path, *tail), tuple(sorted(scores))))

    def _two_more(self, shown: int, near: int) -> bool:
        """Whether two or more of the near cards (a bit each) could beat the bar: the two best of them and the best
        others that fit. Asked again and again with the same few sets in a round, so the answers are kept until the
        bar or the round changes (`_found`, `_run`)."""
        key = shown | near << self.size
        verdict = self.verdicts.get(key)
        if verdict is None:
            points = self.points
            order = self.order
            two = count = 0
            rest = shown
            for i in order:
                if near >> i & 1:
                    if count < 2:
                        two += points[i]
                        count += 1
                    else:
                        rest |= 1 << i
            verdict = count == 2 and two + _top_points(order, points, rest, self.slots - 2) > self.bar
            self.verdicts[key] = verdict
        return verdict

    def _before_last(
        self,
        g: int,
        moves: int,
        shown: int,
        path: list[Move],
        first: list[int],
        around: list[tuple[int, int, int]],
        live: int,
        faces: list[int],
        skip: int,
        allowed: int,
    ) -> None:
        """The positions one move before the end, the most numerous, searched here without a call each: most
        of them were searched already or have fewer than two cards within one move (`_visit` with one move left,
        unrolled)."""
        rows, cards, seen = self.rows, self.cards, self.seen
        after = moves + 1
        children = [(k, a, b, faces[a] ^ faces[b]) for k, (a, b) in enumerate(_SHIFT_PAIRS)
                    if faces[a] != faces[b] and (live >> (faces[a] >> 1) & 1 or live >> (faces[b] >> 1) & 1)
                    and not skip >> k & 1 and allowed >> k & 1]
        children += [(12 + c, c, None, 1) for c in CELLS
                     if live >> (faces[c] >> 1) & 1 and not skip >> (12 + c) & 1 and allowed >> (12 + c) & 1]
        # Each card near here (all within two moves: a card farther before this move is at least two moves away
        # after it) with what its tests read, taken out once for all the children. Only a card one move away here
        # can show after one move; and a card two moves away is one move away after exactly the moves that bring
        # it nearer (`moves_nearer`, from `CardInfo.nearer_moves`: no test after the move).
        shows = [(i, *rows[i]) for i, low, _ in around if low <= 1]
        low_g, middle_g, high_g = g & 511, (g >> 9) & 511, g >> 18
        tests = []
        for i, low, high in around:
            card = cards[i]
            table = card.face_table
            if low == high == 2:
                face_key = table[low_g] | table[middle_g] << 12 | table[high_g] << 24
                moves_nearer = card.nearer.get(face_key)
                if moves_nearer is None:
                    moves_nearer = card.nearer_moves(g, face_key)
                tests.append((i, None, card.distances, card.near, card, moves_nearer))
            else:
                tests.append((i, table, card.distances, card.near, card, _ALL_MOVES))
        for k, a, b, diff in children:
            h = g ^ (diff << (3 * a)) if b is None else g ^ (diff << (3 * a)) ^ (diff << (3 * b))
            self.nodes += 1
            if not self.nodes & self.clock_mask:
                if self.nodes > self.max_nodes:
                    raise _OutOfNodes
                if self.out_of_time is not None and self.out_of_time():
                    raise _OutOfNodes
            low, middle, high = h & 511, (h >> 9) & 511, h >> 18
            newly = 0
            for i, ra, rb, rc in shows:
                if ra[low] & rb[middle] & rc[high]:
                    newly |= 1 << i
            now_shown = shown | newly
            key = h | now_shown << 27
            if key in seen:  # searched with one move left or more
                continue
            seen[key] = 1
            # The one-move test for each card (the cards' caches read here directly, as in _visit).
            near = []
            near_bits = 0
            for i, table, distances, within, card, moves_nearer in tests:
                if moves_nearer >> k & 1 and not now_shown >> i & 1:
                    if table is None:
                        near.append(i)
                        near_bits |= 1 << i
                        continue
                    face_key = table[low] | table[middle] << 12 | table[high] << 24
                    d = distances.get(face_key)
                    if d is None:
                        one = within.get(face_key)
                        if card.within_one(h, face_key) if one is None else one:
                            near.append(i)
                            near_bits |= 1 << i
                    elif d <= 1:
                        near.append(i)
                        near_bits |= 1 << i
            child_first = first
            if newly:
                child_first = list(first)
                for i, _, _ in around:
                    if newly >> i & 1:
                        child_first[i] = after
            if not near:
                continue
            if newly:
                path.append(_MOVES[k])
                self._one_more(h, after, now_shown, path, child_first, near)
                path.pop()
            if self._two_more(now_shown, near_bits):
                kinds = 0
                for i in near:
                    kinds |= cards[i].kinds_mask
                faces_after = [(h >> (3 * c)) & 7 for c in CELLS]
                path.append(_MOVES[k])
                self._last_move(h, after, now_shown, path, child_first, near, kinds, faces_after,
                                0 if newly else _SKIP_AFTER[k])
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
        skip: int,
    ) -> None:
        """The final move when it must show at least two more cards at once (the leaves, without recursion)."""
        rows = self.rows
        children = [(a, b, faces[a] ^ faces[b]) for k, (a, b) in enumerate(_SHIFT_PAIRS)
                    if faces[a] != faces[b] and not skip >> k & 1]
        children += [(c, None, 1) for c in CELLS if not skip >> (12 + c) & 1]
        for a, b, diff in children:
            if not (live >> (faces[a] >> 1) & 1 or (b is not None and live >> (faces[b] >> 1) & 1)):
                continue
            child = g ^ (diff << (3 * a)) if b is None else g ^ (diff << (3 * a)) ^ (diff << (3 * b))
            newly = 0
            low, middle, high = child & 511, (child >> 9) & 511, child >> 18
            for i in near:
                ra, rb, rc = rows[i]
                if ra[low] & rb[middle] & rc[high]:
                    newly |= 1 << i
            if newly & (newly - 1) == 0:
                continue  # one card or none: the single-card continuations covered that
            value, chosen = _top(self.points, shown | newly, self.slots)
            if value > self.bar:
                move = Move(a, b)
                scores = [(first[i] if shown >> i & 1 else moves + 1, i) for i in chosen]
                self._found(Plan(value, (*path, move), tuple(sorted(scores))))


# Hands of up to 8 cards need at most about 3,100 positions (2,000 random hands); a hand grown past that by skips
# without playing could need hundreds of thousands, so the search stops here and says it is not exact.
MAX_NODES = 40_000


def best_turn(grid: Grid, hand: Sequence[Pattern], max_nodes: int = MAX_NODES) -> Plan:
    """The most points this hand can score this turn, with the fewest moves among such turns.

    Each move spends a hand card, and a spent card can no longer score; cards may score at any point.
    """
    return _TurnSearch(grid, hand, max_nodes).run()


def best_turn_checked(
    grid: Grid, hand: Sequence[Pattern], max_nodes: int = MAX_NODES, out_of_time: Callable[[], bool] | None = None
) -> tuple[Plan, bool]:
    """The best turn and whether the search finished (it is then exact) within `max_nodes` positions and before
    `out_of_time()` said stop; a search cut short gives the best plan found so far."""
    search = _TurnSearch(grid, hand, max_nodes, out_of_time)
    plan = search.run()
    return plan, search.exact


def greedy_turn(grid: Grid, hand: Sequence[Pattern]) -> Plan:
    """The plan the search starts from (routes to the nearest cards one after another): good, not always best."""
    search = _TurnSearch(grid, hand, MAX_NODES)
    search._prepare()
    return search._greedy()


def search_nodes(grid: Grid, hand: Sequence[Pattern]) -> int:
    """How many positions the best-turn search visits (for the benchmark)."""
    search = _TurnSearch(grid, hand, MAX_NODES)
    search.run()
    return search.nodes
