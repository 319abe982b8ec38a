"""Kept build plans: asked again for the same network and slots, the same plans; after a build, new ones."""

from __future__ import annotations

import dataclasses
import random

from pg_table import start

from companion.games.power_grid.data import MAPS
from companion.games.power_grid.hints import build_plans, clear_plan_cache
from companion.games.power_grid.state import Player


def test_plans_are_kept_per_network_and_slots_and_a_build_changes_them():
    state = start(4, order=(0, 1, 2, 3), map_id="germany")
    regions = state.regions or tuple(sorted({c.region for c in MAPS["germany"].cities})[:4])
    inside = list(MAPS["germany"].cities_in(regions))
    rng = random.Random(3)
    rng.shuffle(inside)
    players = list(state.players)
    players[0] = Player(200, (), tuple(inside[:3]))
    state = dataclasses.replace(state, players=tuple(players), regions=regions, phase="building", queue=(0,), step=1)
    clear_plan_cache()
    fresh = build_plans(state, 0)
    assert build_plans(state, 0) == fresh  # kept
    # Another seat builds in the city this seat's cheapest single city was: the plans follow the new slots.
    target = fresh[1].cities[0]
    others = list(state.players)
    others[1] = Player(others[1].money, others[1].plants, (*others[1].cities, target))
    changed = dataclasses.replace(state, players=tuple(others))
    after = build_plans(changed, 0)
    clear_plan_cache()
    assert after == build_plans(changed, 0)  # the same as computed afresh
    assert after[1] != fresh[1]
