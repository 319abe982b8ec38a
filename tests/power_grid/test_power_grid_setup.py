"""Setup, regions and turn order, as RULINGS.md reads them."""

from __future__ import annotations

import random

import pytest
from pg_table import GAME, play, start

from companion.core import HOST, TABLE, IllegalAction, NotYourTurn
from companion.games.power_grid.actions import ChooseRegions, OpenAuction, Pass, RevealPlant
from companion.games.power_grid.data import INITIAL_MARKET, PLANTS, STEP3
from companion.games.power_grid.regions import is_contiguous, valid_sets


@pytest.mark.parametrize(("players", "removed"), [(2, 8), (3, 8), (4, 4), (5, 0), (6, 0)])
def test_setup_50_elektro_market_3_to_10_plant_13_on_top_step3_at_bottom(players, removed):
    config = GAME.make_config(players)
    state = GAME.setup(config, random.Random(7))
    assert [p.money for p in state.players] == [50] * players
    assert state.current_market() == (3, 4, 5, 6) and state.future_market() == (7, 8, 9, 10)
    assert state.deck[0] == 13 and state.deck[-1] == STEP3
    assert len(state.setup_removed) == removed
    # Every card is somewhere: market, deck, or removed face down before 13 went on top.
    cards = [*state.market, *state.deck, *state.setup_removed]
    assert sorted(cards) == sorted([*PLANTS, STEP3])
    assert 13 not in state.setup_removed


def test_setup_removes_different_plants_with_different_seeds():
    config = GAME.make_config(2)
    removed = {GAME.setup(config, random.Random(seed)).setup_removed for seed in range(6)}
    assert len(removed) > 1


def test_physical_setup_knows_only_plant_13_on_top_and_the_step3_card_at_the_bottom():
    config = GAME.make_config(4, "physical")
    state = GAME.setup(config, random.Random(1))
    assert state.deck == (13, *([0] * 29), STEP3)
    assert state.pool == frozenset(PLANTS) - set(INITIAL_MARKET) - {13}
    assert state.setup_removed == ()


@pytest.mark.parametrize(("players", "count"), [(2, 3), (3, 3), (4, 4), (5, 5), (6, 5)])
def test_regions_by_player_count_and_contiguous(players, count):
    config = GAME.make_config(players, options={"map": "usa"})
    state = GAME.setup(config, random.Random(3))
    assert GAME.current_seats(state) == (HOST,)
    legal = GAME.legal_actions(state, HOST)
    assert legal[0] == ChooseRegions(HOST, state.proposed_regions)
    assert {a.regions for a in legal} == set(valid_sets("usa", count))
    assert all(len(a.regions) == count and is_contiguous("usa", a.regions) for a in legal)


def test_the_host_picks_the_regions_and_they_must_be_contiguous():
    state = GAME.setup(GAME.make_config(3), random.Random(0))
    with pytest.raises(IllegalAction, match="contiguous"):
        GAME.apply(state, ChooseRegions(HOST, ("ne", "sw", "s")))  # north-east does not touch the south
    with pytest.raises(IllegalAction, match="3 regions, not 4"):
        GAME.apply(state, ChooseRegions(HOST, ("nw", "ne", "w", "e")))
    with pytest.raises(IllegalAction, match="no region 'atlantis'"):
        GAME.apply(state, ChooseRegions(HOST, ("nw", "ne", "atlantis")))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, ChooseRegions(0, ("nw", "ne", "w")))
    chosen = play(state, ChooseRegions(HOST, ("w", "nw", "ne")))
    assert chosen.regions == ("nw", "ne", "w") and chosen.phase == "auction"


def test_the_companion_proposes_a_random_valid_set():
    proposals = set()
    for seed in range(12):
        state = GAME.setup(GAME.make_config(4), random.Random(seed))
        assert state.proposed_regions in valid_sets("germany", 4)
        proposals.add(state.proposed_regions)
    assert len(proposals) > 1


def test_round_1_order_is_random():
    orders = {GAME.setup(GAME.make_config(4), random.Random(seed)).order for seed in range(12)}
    assert len(orders) > 1


def test_round_1_order_is_redetermined_after_the_first_auctions_by_highest_plant():
    state = start(4, order=(0, 1, 2, 3))
    state = play(
        state,
        OpenAuction(0, 4, 4),
        Pass(1),
        Pass(2),
        Pass(3),
        RevealPlant(TABLE, 13),
        OpenAuction(1, 3, 3),
        Pass(2),
        Pass(3),
        RevealPlant(TABLE, 20),
        OpenAuction(2, 6, 6),
        Pass(3),
        RevealPlant(TABLE, 21),
    )
    assert state.phase == "auction" and state.order == (0, 1, 2, 3)
    state = play(state, OpenAuction(3, 5, 5), RevealPlant(TABLE, 22))
    # No cities yet, so the highest plant goes first: 6 (seat 2), 5 (seat 3), 4 (seat 0), 3 (seat 1).
    assert state.order == (2, 3, 0, 1)
    assert state.phase == "resources" and GAME.current_seats(state) == (1,)  # resources go in reverse order


def test_turn_order_most_cities_first_ties_to_the_highest_plant():
    from pg_table import position

    from companion.games.power_grid.order import turn_order

    state = start(4)
    state = position(
        state,
        players={
            0: {"plants": [10], "cities": ["kiel"]},
            1: {"plants": [25], "cities": ["hamburg", "lubeck"]},
            2: {"plants": [31], "cities": ["bremen"]},
            3: {"plants": [8], "cities": ["hannover", "berlin"]},
        },
    )
    assert turn_order(state) == (1, 3, 2, 0)
