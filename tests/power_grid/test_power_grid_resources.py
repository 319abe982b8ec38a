"""Phase 3, buying resources into per-plant storage, and moving them between plants, as RULINGS.md reads them."""

from __future__ import annotations

import pytest
from pg_table import GAME, money, play, position, start, stock_of, texts

from companion.core import NotYourTurn
from companion.core.errors import IllegalAction
from companion.games.power_grid.actions import BuyResources, EndBuying, Fire, MoveResources


def buying(**players):
    state = start(4, order=(0, 1, 2, 3))
    return position(
        state,
        phase="resources",
        queue=(3, 2, 1, 0),
        players={int(k[1:]): v for k, v in players.items()},
    )


def test_resources_are_bought_in_reverse_turn_order():
    state = buying(s0={"plants": [4]}, s1={"plants": [3]}, s2={"plants": [6]}, s3={"plants": [5]})
    assert GAME.current_seats(state) == (3,)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, BuyResources(0, 4, "coal", 1))
    state = play(state, EndBuying(3), EndBuying(2))
    assert GAME.current_seats(state) == (1,)
    state = play(state, EndBuying(1), EndBuying(0))
    assert state.phase == "building" and GAME.current_seats(state) == (3,)


def test_each_token_costs_its_market_space_and_the_cheapest_is_taken_first():
    state = buying(s0={"plants": [4]}, s1={"plants": [3]}, s2={"plants": [11]}, s3={"plants": [8]})
    # Coal starts on 1-8, three per space: six coal cost 1+1+1+2+2+2.
    state = play(state, BuyResources(3, 8, "coal", 6))
    assert money(state)[3] == 50 - 9 and state.resources[0] == 18
    state = play(state, EndBuying(3), BuyResources(2, 11, "uranium", 1))
    assert money(state)[2] == 50 - 14  # uranium starts on 14 and 16
    state = play(state, EndBuying(2), BuyResources(1, 3, "oil", 4), EndBuying(1))
    assert money(state)[1] == 50 - (3 + 3 + 3 + 4)  # oil starts on 3-8
    state = play(state, BuyResources(0, 4, "coal", 2))
    assert money(state)[0] == 50 - (3 + 3)  # the 1s and 2s are gone
    assert texts(state) == ["Take 2 coal from the market and put them on plant 4"]


def test_buy_only_what_your_plants_can_store():
    state = buying(s3={"plants": [(4, {"coal": 1}), 6]})
    with pytest.raises(IllegalAction, match="plant 4 does not burn oil"):
        GAME.apply(state, BuyResources(3, 4, "oil", 1))
    with pytest.raises(IllegalAction, match="plant 4 has room for 3 more"):
        GAME.apply(state, BuyResources(3, 4, "coal", 4))
    scarce = position(state, resources=(24, 18, 1, 2))
    with pytest.raises(IllegalAction, match="the market has only 1 garbage"):
        GAME.apply(scarce, BuyResources(3, 6, "garbage", 2))
    with pytest.raises(IllegalAction, match="do not own plant 10"):
        GAME.apply(state, BuyResources(3, 10, "coal", 1))
    legal = GAME.legal_actions(state, 3)
    assert {(a.plant, a.resource) for a in legal if isinstance(a, BuyResources)} == {(4, "coal"), (6, "garbage")}
    assert max(a.count for a in legal if isinstance(a, BuyResources) and a.plant == 4) == 3


def test_storage_is_per_plant_and_a_hybrid_holds_coal_and_oil_in_any_mix():
    state = buying(s3={"plants": [5, 4]})
    state = play(state, BuyResources(3, 5, "coal", 1), BuyResources(3, 5, "oil", 3))
    assert stock_of(state, 3, 5) == (1, 3, 0, 0)
    with pytest.raises(IllegalAction, match="plant 5 has room for 0 more"):
        GAME.apply(state, BuyResources(3, 5, "coal", 1))
    state = play(state, BuyResources(3, 4, "coal", 4))
    assert stock_of(state, 3, 4) == (4, 0, 0, 0)


def test_the_owner_may_move_resources_between_own_plants():
    state = buying(s3={"plants": [(5, {"coal": 4}), 4]})
    state = play(state, MoveResources(3, 5, 4, "coal", 3))
    assert stock_of(state, 3, 5) == (1, 0, 0, 0) and stock_of(state, 3, 4) == (3, 0, 0, 0)
    assert texts(state) == ["Move 3 coal from plant 5 to plant 4"]
    # Now the hybrid has room for oil.
    state = play(state, BuyResources(3, 5, "oil", 3))
    assert stock_of(state, 3, 5) == (1, 3, 0, 0)
    with pytest.raises(IllegalAction, match="plant 4 cannot store oil"):
        GAME.apply(state, MoveResources(3, 5, 4, "oil", 1))
    with pytest.raises(IllegalAction, match="plant 5 holds only 1 coal"):
        GAME.apply(state, MoveResources(3, 5, 4, "coal", 2))
    with pytest.raises(IllegalAction, match="plant 5 has room for 0 more"):
        GAME.apply(state, MoveResources(3, 4, 5, "coal", 1))


def test_a_plant_fires_only_resources_that_can_be_stored_on_it():
    """Plants fire what is on them; tokens may be moved first, but only where there is room for them."""
    state = start(4, order=(0, 1, 2, 3))
    # The hybrid is full of oil and no other plant takes oil, so it cannot fire on the coal plant's coal.
    state = position(
        state,
        phase="bureaucracy",
        queue=(0,),
        powered=(-1, -1, -1, -1),
        players={0: {"plants": [(5, {"oil": 4}), (4, {"coal": 4})], "cities": ["kiel", "hamburg"]}},
    )
    with pytest.raises(IllegalAction, match="burning 2 coal in the hybrids would leave more resources than your "
                       "plants can store: let the hybrids burn 0 coal and 2 oil instead"):
        GAME.apply(state, Fire(0, (5,), 2))
    state = play(state, Fire(0, (4, 5), 0))
    assert stock_of(state, 0, 5) == (0, 2, 0, 0) and stock_of(state, 0, 4) == (2, 0, 0, 0)
    # With room elsewhere for the oil, the hybrid may burn coal moved onto it.
    state = start(4, order=(0, 1, 2, 3))
    state = position(
        state,
        phase="bureaucracy",
        queue=(0,),
        powered=(-1, -1, -1, -1),
        players={0: {"plants": [(5, {"oil": 4}), (4, {"coal": 4}), 9], "cities": ["kiel"]}},
    )
    state = play(state, Fire(0, (5,), 2))
    assert sum(h.stock[0] for h in state.players[0].plants) == 2
    assert sum(h.stock[1] for h in state.players[0].plants) == 4
