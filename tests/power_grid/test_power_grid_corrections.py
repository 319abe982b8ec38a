"""The host's corrections of the board: houses, the resources on a plant, who owns a plant, and the market. Cards
and tokens are conserved through every one of them, and each is refused with a reason when it cannot be."""

from __future__ import annotations

import dataclasses
import random

import pytest
from pg_invariants import plants_conserved, resources_conserved
from pg_table import GAME, city, plants_of, position, start, stock_of

from companion.core import HOST, IllegalAction
from companion.games.power_grid.actions import AdjustMoney, CorrectHouse, CorrectStock, MovePlant, SwapPlants
from companion.games.power_grid.data import PLANTS, STEP3
from companion.games.power_grid.resources import supply


def fixed(state, action):
    new, log = GAME.apply(state, action)
    plants_conserved(new, None)
    resources_conserved(new, None)
    return new, log


def refused(state, action, reason):
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply(state, action)


def given(state, seat, *plants):
    """The seat owns these plants, taken from wherever they were (by the correction under test below)."""
    for plant in plants:
        state, _ = fixed(state, MovePlant(HOST, plant=plant, owner=seat))
    return state


def test_the_host_adds_and_removes_a_house_without_touching_money():
    state = start(3)
    state, log = fixed(state, CorrectHouse(HOST, player=1, city="hamburg", change="add"))
    assert state.players[1].cities == (city("germany", "hamburg"),) and state.players[1].money == 50
    assert log[0].render() == "The host added a house of 1 in Hamburg"
    refused(state, CorrectHouse(HOST, player=1, city="hamburg", change="add"), "has a house in Hamburg already")
    refused(state, CorrectHouse(HOST, player=2, city="hamburg", change="add"),
            "Hamburg has no free space: Step 1 allows 1 houses in a city")
    refused(state, CorrectHouse(HOST, player=2, city="aachen", change="add"), "Aachen is outside the regions")
    refused(state, CorrectHouse(HOST, player=2, city="hamburg", change="remove"), "has no house in Hamburg")
    refused(state, CorrectHouse(HOST, player=2, city="atlantis", change="add"), "has no city 'atlantis'")
    refused(state, CorrectHouse(1, player=1, city="kiel", change="add"), "only the host makes corrections")
    state, log = fixed(state, CorrectHouse(HOST, player=1, city="hamburg", change="remove"))
    assert state.players[1].cities == () and log[0].render() == "The host removed the house of 1 in Hamburg"


def test_a_house_correction_respects_the_step_slots():
    state = dataclasses.replace(start(3), step=2)
    state, _ = fixed(state, CorrectHouse(HOST, player=0, city="kiel", change="add"))
    state, _ = fixed(state, CorrectHouse(HOST, player=1, city="kiel", change="add"))
    refused(state, CorrectHouse(HOST, player=2, city="kiel", change="add"), "Step 2 allows 2 houses")


def test_a_house_correction_that_raises_the_most_cities_removes_small_plants_as_a_build_does():
    state = start(3, mode="digital")
    cities = ["flensburg", "kiel", "hamburg"]
    state = position(state, players={0: {"cities": cities}})
    before = state.market
    state, log = fixed(state, CorrectHouse(HOST, player=0, city="bremen", change="add"))
    assert 3 in before and 4 in before and 3 not in state.market and 4 not in state.market
    assert {3, 4} <= set(state.removed) and len(state.market) == len(before)  # replaced from the deck
    assert "Plant 3 left the game: a player has 4 cities" in [m.render() for m in log]
    assert [j.template for j in GAME.board_jobs(None, CorrectHouse(HOST, 0, "bremen", "add"), state)][:1] == [
        "Remove plant {plant} from the game"]


def test_the_host_sets_the_resources_on_a_plant_from_and_to_the_supply():
    market = (20, 18, 6, 2)  # coal 4 short of full, so the supply has 4
    state = given(position(start(3, mode="digital"), resources=market), 1, 5)
    state, _ = fixed(state, CorrectStock(HOST, plant=5, coal=1))
    left = supply(state)
    state, log = fixed(state, CorrectStock(HOST, plant=5, coal=2, oil=2))
    assert stock_of(state, 1, 5) == (2, 2, 0, 0)
    assert supply(state)[0] == left[0] - 1 and supply(state)[1] == left[1] - 2 and state.resources == market
    assert log[0].render() == "The host set the resources on plant 5 of 1: 2 coal, 2 oil, 0 garbage, 0 uranium"
    state, _ = fixed(state, CorrectStock(HOST, plant=5))
    assert stock_of(state, 1, 5) == (0, 0, 0, 0) and supply(state)[0] == left[0] + 1  # back to the supply
    refused(state, CorrectStock(HOST, plant=5, coal=5), "plant 5 holds at most 4 tokens")
    refused(state, CorrectStock(HOST, plant=5, garbage=1), "plant 5 cannot store garbage")
    refused(state, CorrectStock(HOST, plant=5), "holds exactly that already")
    refused(state, CorrectStock(HOST, plant=6, garbage=1), "plant 6 belongs to nobody")
    refused(state, CorrectStock(HOST, plant=5, coal=-1), "fewer than 0")


def test_a_stock_correction_cannot_take_more_than_the_supply_holds():
    state = given(start(3, mode="digital"), 0, 5)
    assert supply(state)[0] == 0  # all 24 coal start on the market
    refused(state, CorrectStock(HOST, plant=5, coal=1), "the supply has only 0 coal left")


def test_the_host_gives_a_market_plant_to_a_player_and_the_gap_is_refilled():
    state = start(3, mode="digital")
    top = state.deck[0]
    state, log = fixed(state, MovePlant(HOST, plant=4, owner=2))
    assert plants_of(state, 2) == [4] and 4 not in state.market and top in state.market
    assert log[0].render() == "The host gave plant 4 to 2" and state.players[2].money == 50
    # Back to the market: the market now has nine plants... which is too many, so it is refused; swap instead.
    refused(state, MovePlant(HOST, plant=4, owner=None), "the market is full")


def test_a_plant_moves_between_players_and_back_into_a_market_with_room():
    state = given(position(start(3, mode="digital"), resources=(20, 18, 6, 2)), 0, 5)
    state, _ = fixed(state, CorrectStock(HOST, plant=5, coal=2))
    state = dataclasses.replace(state, market=state.market[:-1], deck=(*state.deck, state.market[-1]))
    state, _ = fixed(state, MovePlant(HOST, plant=5, owner=1))
    assert plants_of(state, 0) == [] and plants_of(state, 1) == [5] and stock_of(state, 1, 5) == (0, 0, 0, 0)
    state, log = fixed(state, MovePlant(HOST, plant=5, owner=None))
    assert 5 in state.market and plants_of(state, 1) == []
    assert log[0].render() == "The host put plant 5 of 1 back into the market"
    refused(state, MovePlant(HOST, plant=5, owner=None), "only a plant a player owns goes back to the market")


def test_the_plant_limit_holds_for_corrections():
    state = start(3, mode="digital")
    three = sorted(p for p in state.deck if p not in (13, STEP3))[:3]
    state = given(state, 0, *three)
    assert plants_of(state, 0) == three
    refused(state, MovePlant(HOST, plant=3, owner=0), "seat 1 has 3 plants, the most allowed: swap one of them instead")
    refused(state, MovePlant(HOST, plant=three[0], owner=0), f"plant {three[0]} belongs to seat 1 already")
    refused(state, MovePlant(HOST, plant=STEP3, owner=0), "the Step 3 card is not moved by a correction")
    refused(state, MovePlant(HOST, plant=2, owner=0), "plant 2 is not a plant of this game")
    # The seat of the action counts from 0; the refusal counts players from 1, as the host reads them.
    refused(state, MovePlant(HOST, plant=3, owner=7), "there is no player 8: the players are 1 to 3")
    refused(state, AdjustMoney(HOST, 3, 5), "there is no player 4: the players are 1 to 3")
    # A swap keeps the count: the player hands 14 back to the market and takes 3.
    state, log = fixed(state, SwapPlants(HOST, plant=three[2], other=3))
    assert plants_of(state, 0) == [3, *three[:2]] and three[2] in state.market
    assert log[0].render() == f"The host swapped plants {three[2]} and 3"


def test_a_market_plant_swaps_with_one_from_the_deck_when_the_table_drew_the_wrong_card():
    state = start(3, mode="digital")
    card = next(c for c in state.deck if c not in (13, STEP3))
    at = state.deck.index(card)
    state, _ = fixed(state, SwapPlants(HOST, plant=10, other=card))
    assert card in state.market and state.deck[at] == 10 and state.market == tuple(sorted(state.market))
    refused(state, SwapPlants(HOST, plant=3, other=4), "in the same place: swapping them changes nothing")


def test_a_real_deck_takes_the_wrong_card_back_among_its_unseen_cards():
    state = start(3)  # physical: the deck's cards are unknown
    unseen = min(state.pool)
    size = len(state.deck)
    state, _ = fixed(state, SwapPlants(HOST, plant=10, other=unseen))
    assert unseen in state.market and 10 in state.pool and unseen not in state.pool and len(state.deck) == size
    # Giving a player an unseen plant takes one unknown card out of the deck.
    other = max(state.pool)
    state, _ = fixed(state, MovePlant(HOST, plant=other, owner=0))
    assert plants_of(state, 0) == [other] and len(state.deck) == size - 1


def test_no_plant_correction_touches_a_plant_on_auction():
    from companion.games.power_grid.actions import OpenAuction

    state = start(3, mode="digital")
    opener = state.order[0]
    state, _ = GAME.apply(state, OpenAuction(opener, 4, 4))
    refused(state, MovePlant(HOST, plant=4, owner=1), "plant 4 is on auction now")


def test_corrections_wait_for_the_regions_and_end_with_the_game():
    config = GAME.make_config(3, "digital", {})
    fresh = GAME.setup(config, random.Random(0))
    refused(fresh, CorrectHouse(HOST, player=0, city="kiel", change="add"), "chooses the regions first")
    assert "correct_house" not in GAME.correction_forms(fresh)
    over = dataclasses.replace(start(3), phase="over")
    refused(over, SwapPlants(HOST, plant=3, other=4), "the game is over")
    assert not {"correct_house", "correct_stock", "move_plant", "swap_plants"} & set(GAME.correction_forms(over))


def test_the_forms_are_lists_of_what_is_on_the_board_and_hide_the_setup_removals():
    state = given(position(start(3, mode="digital"), resources=(20, 18, 6, 2)), 1, 5, 13)
    forms = GAME.correction_forms(state)
    assert {"adjust_money", "correct_house", "correct_stock", "move_plant", "swap_plants"} <= set(forms)
    stock = forms["correct_stock"]["fields"]
    assert [c["value"] for c in stock[0]["choices"]] == [5]  # plant 13 stores nothing
    labels = {c["value"]: c["label"]["template"] for c in forms["swap_plants"]["fields"][0]["choices"]}
    assert labels[5] == "plant {plant} ({player})" and labels[3] == "plant {plant} (market)"
    assert all(labels[p] == "plant {plant} (not drawn yet)" for p in state.setup_removed)
    cities = [c["value"] for c in forms["correct_house"]["fields"][2]["choices"]]
    assert "hamburg" in cities and "aachen" not in cities


def test_random_corrections_keep_every_card_and_token_accounted_for():
    rng = random.Random(11)
    plants = sorted(PLANTS)
    for mode in ("digital", "physical"):
        state = start(4, mode=mode)
        cities = [c["value"] for c in GAME.correction_forms(state)["correct_house"]["fields"][2]["choices"]]
        accepted = 0
        for _ in range(400):
            roll = rng.random()
            if roll < 0.25:
                action = CorrectHouse(HOST, rng.randrange(4), rng.choice(cities), rng.choice(["add", "remove"]))
            elif roll < 0.5:
                action = CorrectStock(HOST, rng.choice(plants), *(rng.randrange(0, 4) for _ in range(4)))
            elif roll < 0.75:
                action = MovePlant(HOST, rng.choice(plants), rng.choice([None, 0, 1, 2, 3]))
            else:
                action = SwapPlants(HOST, rng.choice(plants), rng.choice(plants))
            try:
                state, _ = fixed(state, action)
                accepted += 1
            except IllegalAction:
                pass
            while GAME.current_seats(state) == ("table",):  # a refill the real table reveals
                state, _ = GAME.apply(state, GAME.legal_actions(state, "table")[0])
        assert accepted > 100
