"""Setup phase: the regions the game is played in (contiguous, 3/3/4/5/5 for 2-6 players)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from functools import cache

from companion.core import IllegalAction, LogMessage, msg
from companion.games.power_grid.data import MAPS
from companion.games.power_grid.state import PowerGridState, todo


def is_contiguous(map_id: str, regions: tuple[str, ...]) -> bool:
    game_map = MAPS[map_id]
    chosen = set(regions)
    if not chosen:
        return False
    seen = {regions[0]}
    frontier = [regions[0]]
    while frontier:
        here = game_map.region(frontier.pop())
        for other in here.adjacent:
            if other in chosen and other not in seen:
                seen.add(other)
                frontier.append(other)
    return seen == chosen


@cache
def valid_sets(map_id: str, count: int) -> tuple[tuple[str, ...], ...]:
    """Every contiguous set of `count` regions, each in the map's region order."""
    ids = [r.id for r in MAPS[map_id].regions]
    return tuple(c for c in itertools.combinations(ids, count) if is_contiguous(map_id, c))


def propose(map_id: str, count: int, rng: random.Random) -> tuple[str, ...]:
    """The companion's proposal: a random valid set."""
    return rng.choice(valid_sets(map_id, count))


def normalise(map_id: str, regions: tuple[str, ...]) -> tuple[str, ...]:
    order = [r.id for r in MAPS[map_id].regions]
    return tuple(sorted(regions, key=order.index))


def choose(state: PowerGridState, regions: tuple[str, ...]) -> tuple[PowerGridState, list[LogMessage]]:
    game_map = MAPS[state.map]
    known = {r.id for r in game_map.regions}
    unknown = [r for r in regions if r not in known]
    if unknown:
        raise IllegalAction(
            "{map} has no region '{region}' (regions: {regions})",
            map=game_map.title,
            region=unknown[0],
            regions=", ".join(sorted(known)),
        )
    if len(set(regions)) != len(regions):
        raise IllegalAction("each region may be chosen once")
    need = state.counts.regions
    if len(regions) != need:
        raise IllegalAction(
            "{n} players play in {need} regions, not {chosen}: choose {need}", n=state.n, need=need, chosen=len(regions)
        )
    if not is_contiguous(state.map, regions):
        raise IllegalAction("the chosen regions must be contiguous: choose regions that border each other")
    regions = normalise(state.map, regions)
    names = tuple(game_map.region(r).colour for r in regions)
    state = dataclasses.replace(
        state,
        regions=regions,
        phase="auction",
        instructions=(todo("Play in the {regions} regions", regions=", ".join(names)),),
    )
    return state, [msg("The game is played in the {regions} regions", regions=names)]
