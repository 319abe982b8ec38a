"""Phase 5: firing, income, resupply and the plant market's update, as RULINGS.md reads them."""

from __future__ import annotations

import pytest
from pg_table import GAME, money, play, play_log, position, start, stock_of, texts

from companion.core import TABLE, IllegalAction
from companion.games.power_grid.actions import BuildCity, BuyResources, EndBuilding, EndBuying, Fire, RevealPlant
from companion.games.power_grid.data import STEP3
from companion.games.power_grid.resources import supply


def firing(**players):
    state = start(4, order=(0, 1, 2, 3))
    return position(
        state,
        phase="bureaucracy",
        queue=(0, 1, 2, 3),
        powered=(-1, -1, -1, -1),
        market=(13, 14, 15, 16, 17, 18, 19, 20),
        deck=(0,) * 20 + (STEP3,),
        pool=state.pool - set(range(14, 21)),
        players={int(k[1:]): v for k, v in players.items()},
    )


def test_rules_example_plant_07_and_6_oil_powering_2_cities_earns_33_one_city_earns_22():
    state = start(4, order=(1, 2, 3, 0))
    state = position(
        state,
        phase="resources",
        queue=(0, 3, 2, 1),
        players={
            0: {"plants": [7]},
            1: {"plants": [(4, {"coal": 2})]},
            2: {"plants": [(4, {"coal": 2})]},
            3: {"plants": [(4, {"coal": 2})]},
        },
    )
    state = play(state, BuyResources(0, 7, "oil", 6), EndBuying(0), EndBuying(3), EndBuying(2), EndBuying(1))
    state = play(
        state,
        BuildCity(0, "kiel"),
        BuildCity(0, "flensburg"),
        EndBuilding(0),
        BuildCity(3, "berlin"),
        EndBuilding(3),
        BuildCity(2, "essen"),
        EndBuilding(2),
        BuildCity(1, "erfurt"),
        EndBuilding(1),
    )
    assert state.phase == "bureaucracy"
    before = money(state)
    for seat in (0, 1, 2, 3):
        state = play(state, GAME.legal_actions(state, seat)[0])
    earned = [after - b for after, b in zip(money(state), before)]
    assert earned == [33, 22, 22, 22]


def test_income_is_for_the_cities_powered_at_most_the_cities_connected():
    state = firing(s0={"plants": [(20, {"coal": 3})], "cities": ["kiel", "hamburg", "lubeck"]})
    state = play(state, Fire(0, (20,), 0))
    assert state.powered[0] == 3 and money(state)[0] == 50 + 44
    assert stock_of(state, 0, 20) == (0, 0, 0, 0)
    assert texts(state) == ["Return 3 coal from plant 20 to the supply"]


def test_above_20_powered_cities_the_income_stays_150():
    cities = [
        "flensburg",
        "kiel",
        "hamburg",
        "cuxhaven",
        "wilhelmshaven",
        "bremen",
        "hannover",
        "lubeck",
        "rostock",
        "schwerin",
        "torgelow",
        "magdeburg",
        "berlin",
        "frankfurto",
        "osnabruck",
        "munster",
        "essen",
        "duisburg",
        "dortmund",
        "dusseldorf",
        "kassel",
    ]
    state = firing(s0={"plants": [(36, {"coal": 3}), (38, {"garbage": 3}), (46, {"oil": 3})], "cities": cities})
    state = play(state, GAME.legal_actions(state, 0)[0])
    assert state.powered[0] == 21 and money(state)[0] == 50 + 150


def test_the_companion_proposes_the_most_cities_then_the_cheapest_resources():
    # Coal is cheap (1) and oil dear (8): the hybrid should burn its coal, and plant 7's oil should stay.
    state = firing(s0={"plants": [(12, {"coal": 2, "oil": 2}), (7, {"oil": 3})], "cities": ["kiel", "hamburg"]})
    state = position(state, resources=(24, 3, 6, 2))
    best = GAME.legal_actions(state, 0)[0]
    assert best == Fire(0, (12,), 2)
    more = position(state, players={0: {"cities": ["kiel", "hamburg", "lubeck", "rostock"]}})
    assert GAME.legal_actions(more, 0)[0] == Fire(0, (7, 12), 2)
    # The player may still choose anything their plants can fire, or nothing.
    assert Fire(0, (), 0) in GAME.legal_actions(state, 0)
    state = play(state, Fire(0, (12,), 0))
    assert stock_of(state, 0, 12) == (2, 0, 0, 0) and money(state)[0] == 50 + 33
    with pytest.raises(IllegalAction, match="need 3 oil and you hold 0: fire fewer plants"):
        GAME.apply(position(firing(s1={"plants": [7], "cities": ["kiel"]})), Fire(1, (7,), 0))


def test_everyone_fires_in_the_same_phase():
    state = firing(
        **{f"s{s}": {"plants": [13], "cities": [c]} for s, c in enumerate(["kiel", "essen", "erfurt", "berlin"])}
    )
    assert set(GAME.current_seats(state)) == {0, 1, 2, 3}
    state = play(state, Fire(2, (13,), 0))
    assert set(GAME.current_seats(state)) == {0, 1, 3}


def everyone_fires(state):
    for seat in list(state.queue):
        state = play(state, GAME.legal_actions(state, seat)[0])
    return state


def test_resupply_by_the_table_from_the_most_expensive_empty_space_down():
    # 4 players, Step 1: coal 5, oil 3, garbage 2, uranium 1.
    state = firing()
    state = position(state, resources=(10, 3, 0, 0))
    state = everyone_fires(state)
    assert state.resources == (15, 6, 2, 1)
    assert texts(state)[:4] == [
        "Resupply: 5 coal on spaces 5-4",
        "Resupply: 3 oil on space 7",
        "Resupply: 2 garbage on space 8",
        "Resupply: 1 uranium on space 16",
    ]


def test_resupply_is_limited_by_the_supply():
    # The players hold 20 coal: 2 coal left in the supply, so only 2 come back to the market.
    holders = {f"s{s}": {"plants": [(36, {"coal": 5})]} for s in range(4)}
    state = position(firing(**holders), resources=(2, 18, 6, 2))
    assert supply(state)[0] == 2
    state = everyone_fires(state)
    assert state.resources[0] == 4


def test_steps_1_and_2_the_highest_future_plant_goes_under_the_deck_and_is_replaced():
    state = everyone_fires(firing())
    assert "Put plant 20 under the deck" in texts(state)
    assert state.deck[-1] == 20 and state.market == (13, 14, 15, 16, 17, 18, 19)
    assert GAME.current_seats(state) == (TABLE,)
    state = play(state, RevealPlant(TABLE, 31))
    assert state.market == (13, 14, 15, 16, 17, 18, 19, 31) and state.round == 2 and state.phase == "auction"


def test_step_3_the_lowest_plant_leaves_and_an_empty_deck_shrinks_the_market():
    state = position(firing(), step=3, step3_out=True, market=(20, 21, 22, 23, 24, 25), deck=(0,), pool=frozenset({30}))
    state = everyone_fires(state)
    assert 20 in state.removed and "Remove plant 20 from the game" in texts(state)
    state = play(state, RevealPlant(TABLE, 30))
    assert state.market == (21, 22, 23, 24, 25, 30) and state.deck == ()
    state = everyone_fires(position(state, phase="bureaucracy", queue=(0, 1, 2, 3), powered=(-1,) * 4))
    assert state.market == (22, 23, 24, 25, 30) and state.phase == "auction"


def test_firing_on_resources_of_another_plant_is_an_implied_move_to_the_firing_plant():
    # Plant 4 holds the coal; only the hybrid 5 fires: the table moves that coal to plant 5 and burns it there.
    state = firing(s0={"plants": [(4, {"coal": 2}), 5], "cities": ["kiel"]})
    state, log = play_log(state, Fire(0, (5,), 2))
    assert stock_of(state, 0, 4) == (0, 0, 0, 0) and state.powered[0] == 1
    assert texts(state) == ["Move 2 coal from plant 4 to plant 5 and burn them there (back to the supply)"]
    moved = log[0]
    assert moved.template == "{player} moved {count} {resource} from plant {from_plant} to plant {to_plant}"
    assert dict(moved.args) == {"player": 0, "count": 2, "resource": "coal", "from_plant": 4, "to_plant": 5}


def test_a_firing_plant_burns_its_own_tokens_first_and_only_the_shortfall_moves():
    # Plant 8 (3 coal) has 4 coal, hybrid 5 has 1 coal: both fire, 5 burns its own coal and one of 8's spare.
    state = firing(s0={"plants": [(8, {"coal": 4}), (5, {"coal": 1})], "cities": ["kiel", "hamburg", "lubeck"]})
    state = play(state, Fire(0, (5, 8), 2))
    assert stock_of(state, 0, 8) == (0, 0, 0, 0) and stock_of(state, 0, 5) == (0, 0, 0, 0)
    assert texts(state) == [
        "Return 1 coal from plant 5 to the supply",
        "Return 3 coal from plant 8 to the supply",
        "Move 1 coal from plant 8 to plant 5 and burn them there (back to the supply)",
    ]
