"""The cheapest set of k new cities: slot prices plus a minimum spanning tree, found exactly by branch and bound.

Building cities one at a time, each pays the cheapest path from the network as it has grown; the best order
is Prim's order, so a set T costs its slot prices plus the weight of a minimum spanning tree over the network
(as one node) and T, in shortest-path distances. The search enumerates every set exactly once, in its Prim order
from the network (or from its first city in a fixed ranking when the network is empty), and cuts a branch when
its cost plus a lower bound on the r cities still to add cannot beat the best set of that size found so far.
Two bounds, the larger counts: each city adds at least its slot and its cheapest edge to the tree or to another
candidate; and the r cities together add at least their slots plus the distance to the farthest of them.
"""

from __future__ import annotations

import dataclasses
from bisect import insort
from collections.abc import Sequence
from itertools import accumulate

from companion.games.power_grid.data import INF


@dataclasses.dataclass(frozen=True)
class BuildPlan:
    cities: tuple[int, ...]  # in the order to build them
    prices: tuple[int, ...]  # what each costs when built in that order
    total: int


def cheapest_sets(
    dist: Sequence[Sequence[int]],
    network: Sequence[int],
    slots: dict[int, int],
    kmax: int,
    budget: int = INF,
) -> list[BuildPlan | None]:
    """Index k (1..kmax): the cheapest plan of k new cities costing at most `budget`, or None.

    `slots` maps each city the player may build in to its slot price.
    """
    cand = sorted(slots)
    m = len(cand)
    wanted = kmax
    kmax = min(kmax, m)
    best_cost = [INF] * (kmax + 1)
    best_seq: list[tuple[int, ...] | None] = [None] * (kmax + 1)
    best_prices: list[tuple[int, ...] | None] = [None] * (kmax + 1)
    if kmax <= 0:
        return [None] * (wanted + 1)
    slot = [slots[c] for c in cand]
    d = [[dist[a][b] for b in cand] for a in cand]
    rooted = bool(network)
    if rooted:
        to_net = [min(dist[n][c] for n in network) for c in cand]
    else:
        to_net = [INF] * m
    # The cheapest a city can ever attach at: to the network or to another candidate.
    nearest = []
    for i in range(m):
        row = d[i]
        low = to_net[i]
        for j in range(m):
            if j != i and row[j] < low:
                low = row[j]
        nearest.append(low)
    budget = min(budget, INF - 1)

    def record(seq: tuple[int, ...], prices: tuple[int, ...], cost: int) -> None:
        k = len(seq)
        if cost < best_cost[k]:
            best_cost[k] = cost
            best_seq[k] = seq
            best_prices[k] = prices

    # Greedy plans first (Prim from the network, or from a few promising first cities), for good early bounds.
    starts: list[int | None] = [None]
    if not rooted:
        starts = [*sorted(range(m), key=lambda i: slot[i] + nearest[i])[:4]]
    for start in starts:
        if start is None:
            cur = list(to_net)
            seq: tuple[int, ...] = ()
            prices: tuple[int, ...] = ()
            cost = 0
        else:
            cur = list(d[start])
            seq = (start,)
            prices = (slot[start],)
            cost = slot[start]
            if cost > budget:
                continue
            record(seq, prices, cost)
        used = set(seq)
        while len(seq) < kmax:
            pick = -1
            low = INF
            for j in range(m):
                if j not in used:
                    v = slot[j] + cur[j]
                    if v < low:
                        low = v
                        pick = j
            if pick < 0 or cost + low > budget:
                break
            cost += low
            seq = (*seq, pick)
            prices = (*prices, low)
            used.add(pick)
            record(seq, prices, cost)
            row = d[pick]
            for j in range(m):
                if row[j] < cur[j]:
                    cur[j] = row[j]

    # What a city adds beyond the first is at least its slot plus its cheapest edge to the network or to another
    # candidate; adding cities never lowers that, so it is a fixed weight per city.
    weight = [slot[i] + nearest[i] for i in range(m)]

    def search(ranked: list[int], cur: list[int], seq: tuple[int, ...], prices: tuple[int, ...], cost: int) -> None:
        """Extend `seq`; `ranked` are the cities still allowed, in this level's Prim order (cheapest edge first).

        A child c may only be followed by cities ranked after it: a city ranked before c would have been
        Prim's choice at this level, so that set is reached on another branch (each set is seen once).
        """
        k = len(seq) + 1
        if k == kmax:
            price, c = min((slot[x] + cur[x], x) for x in ranked)
            if cost + price < best_cost[k] and cost + price <= budget:
                record((*seq, c), (*prices, price), cost + price)
            return
        need = kmax - k
        n = len(ranked)
        # suffix[j]: running sums of the smallest weights among ranked[j:] (at most `need` of them) -- what any
        # completion of the child at j-1 pays at least, checked before that child's distances are worked out.
        suffix: list[list[int]] = [[]] * (n + 1)
        small: list[int] = []
        for j in range(n - 1, 0, -1):
            w = weight[ranked[j]]
            if len(small) < need:
                insort(small, w)
            elif w < small[-1]:
                small.pop()
                insort(small, w)
            else:
                suffix[j] = suffix[j + 1]
                continue
            suffix[j] = list(accumulate(small))
        # Any completion of any child pays at least the smallest weights of this node's cities (a child's cities
        # are a subset), so children taken in price order stop as soon as none can improve on the best.
        rest = list(accumulate(sorted(map(weight.__getitem__, ranked))[:need]))
        first = not seq and not rooted
        for price, i in sorted([(slot[x] + cur[x], i) for i, x in enumerate(ranked)]):
            new_cost = cost + price
            if new_cost > budget:
                break
            hopeful = new_cost < best_cost[k]
            c = ranked[i]
            if hopeful:
                record((*seq, c), (*prices, price), new_cost)
            deeper = False
            for r, w in enumerate(rest, k + 1):
                if new_cost + w < best_cost[r]:
                    deeper = True
                    break
            if not deeper:
                if hopeful:
                    continue
                break
            sums = suffix[i + 1]
            for r, w in enumerate(sums, k + 1):
                if new_cost + w < best_cost[r] and new_cost + w <= budget:
                    break
            else:
                continue
            after = ranked[i + 1 :]
            row = d[c]
            if need == 1:
                # The child's own search would take the cheapest next city; done here it needs no new ranking.
                if first:
                    last, x = min((slot[x] + row[x], x) for x in after)
                else:
                    last, x = min((slot[x] + (cur[x] if cur[x] < row[x] else row[x]), x) for x in after)
                if new_cost + last < best_cost[kmax] and new_cost + last <= budget:
                    record((*seq, c, x), (*prices, price, last), new_cost + last)
                continue
            new_cur = list(row) if first else [a if a < b else b for a, b in zip(cur, row)]
            nxt = sorted(after, key=new_cur.__getitem__)
            ss = sorted(map(slot.__getitem__, nxt))
            slots_acc = new_cost
            for r in range(1, len(sums) + 1):
                slots_acc += ss[r - 1]
                # The cities added hang from the network by paths at least as long as the farthest one's distance.
                bound = max(new_cost + sums[r - 1], slots_acc + new_cur[nxt[r - 1]])
                if bound > budget:
                    break
                if bound < best_cost[k + r]:
                    search(nxt, new_cur, (*seq, c), (*prices, price), new_cost)
                    break

    if rooted:
        search(sorted(range(m), key=to_net.__getitem__), list(to_net), (), (), 0)
    else:
        # The first city pays only its slot. Any fixed ranking works at this level; ranking the cities that have
        # close neighbours first finds good sets early and leaves the later first cities few, dear followers.
        search(sorted(range(m), key=lambda i: (weight[i], i)), [0] * m, (), (), 0)

    out: list[BuildPlan | None] = [None]
    for k in range(1, kmax + 1):
        found, paid = best_seq[k], best_prices[k]
        if found is None or paid is None:
            out.append(None)
        else:
            out.append(BuildPlan(tuple(cand[i] for i in found), paid, best_cost[k]))
    return out + [None] * (wanted - kmax)


def mst_cost(dist: Sequence[Sequence[int]], network: Sequence[int], cities: Sequence[int]) -> int:
    """Weight of a minimum spanning tree over the network (one node) and `cities` (Prim's algorithm)."""
    todo = list(cities)
    if not todo:
        return 0
    if network:
        cur = {c: min(dist[n][c] for n in network) for c in todo}
        total = 0
    else:
        first = todo.pop(0)
        cur = {c: dist[first][c] for c in todo}
        total = 0
    while cur:
        c = min(cur, key=lambda x: cur[x])
        total += cur.pop(c)
        for x in cur:
            if dist[c][x] < cur[x]:
                cur[x] = dist[c][x]
    return total
