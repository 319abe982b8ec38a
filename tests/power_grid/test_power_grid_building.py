"""Phase 4, building, and the removal of small plants, as RULINGS.md reads them."""

from __future__ import annotations

import pytest
from pg_table import GAME, city, money, play, position, start, texts

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.games.power_grid.actions import BuildCity, EndBuilding, OpenAuction, Pass, RevealPlant
from companion.games.power_grid.building import prices

WEST = ("nw", "w", "sw", "e")


def building(regions=WEST, map_id="germany", step=1, **players):
    state = start(4, order=(0, 1, 2, 3), regions=regions, map_id=map_id)
    return position(
        state,
        phase="building",
        queue=(3, 2, 1, 0),
        step=step,
        market=(13, 14, 15, 16, 17, 18, 19, 20),
        deck=(0,) * 20,
        pool=state.pool - set(range(14, 21)),
        players={int(k[1:]): v for k, v in players.items()},
    )


def test_building_goes_in_reverse_turn_order():
    state = building()
    assert GAME.current_seats(state) == (3,)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, BuildCity(0, "essen"))
    state = play(state, EndBuilding(3))
    assert GAME.current_seats(state) == (2,)


def test_the_first_city_costs_only_its_slot_price():
    state = building(s3={"plants": [4]})
    assert set(prices(state, 3).values()) == {10}
    state = play(state, BuildCity(3, "koln"))
    assert money(state)[3] == 40
    assert texts(state) == ["Put a house of player 4 in Köln", "Move player 4's marker to 1 on the city track"]


def test_golden_build_price_aachen_via_dusseldorf_from_essen():
    state = building(s3={"cities": ["essen"]})
    assert prices(state, 3)[city("germany", "aachen")] == 10 + 2 + 9
    state = play(state, BuildCity(3, "aachen"))
    assert money(state)[3] == 50 - 21


def test_golden_build_prices_on_the_usa_map():
    state = building(regions=("nw", "sw", "s", "mid"), map_id="usa", s3={"cities": ["seattle"]})
    p = prices(state, 3)
    assert p[city("usa", "portland")] == 10 + 3
    assert p[city("usa", "boise")] == 10 + 12  # direct, cheaper than 3 + 13 through Portland
    assert p[city("usa", "sanfrancisco")] == 10 + 3 + 24  # through Portland, cheaper than 12 + 23 through Boise
    assert p[city("usa", "saltlakecity")] == 10 + 12 + 8


def test_the_path_may_pass_through_a_full_city():
    # Düsseldorf is full in Step 1 (seat 0 is there), yet the path to Aachen still runs through it.
    state = building(s3={"cities": ["essen"]}, s0={"cities": ["dusseldorf"]})
    with pytest.raises(IllegalAction, match="Düsseldorf is full: Step 1 allows 1 house"):
        GAME.apply(state, BuildCity(3, "dusseldorf"))
    assert prices(state, 3)[city("germany", "aachen")] == 21


def test_paths_stay_inside_the_chosen_regions():
    # Without the west, Essen is out of play and no path may cut through it.
    state = building(regions=("nw", "ne", "e", "s"), s3={"cities": ["hannover"]})
    with pytest.raises(IllegalAction, match="Essen is outside the regions in play"):
        GAME.apply(state, BuildCity(3, "essen"))
    assert city("germany", "essen") not in prices(state, 3)
    # Hannover - Kassel - Fulda (15 + 8) runs through the west; inside, it is Hannover - Erfurt - Fulda (19 + 13).
    assert prices(state, 3)[city("germany", "fulda")] == 10 + 19 + 13


def test_cities_built_earlier_in_the_turn_are_part_of_the_network():
    state = building(s3={"cities": ["essen"]})
    state = play(state, BuildCity(3, "dusseldorf"))
    assert money(state)[3] == 50 - 12
    state = play(state, BuildCity(3, "aachen"))
    assert money(state)[3] == 50 - 12 - 19  # from Düsseldorf now, 10 + 9


def test_step_2_allows_a_second_house_at_15_and_never_two_of_your_own():
    state = building(step=2, s3={"cities": ["essen"], "money": 100}, s0={"cities": ["duisburg"]})
    with pytest.raises(IllegalAction, match="already have a house in Essen"):
        GAME.apply(state, BuildCity(3, "essen"))
    assert prices(state, 3)[city("germany", "duisburg")] == 15 + 0
    state = play(state, BuildCity(3, "duisburg"))
    assert state.occupants(city("germany", "duisburg")) == (0, 3)
    state = play(state, EndBuilding(3))
    with pytest.raises(IllegalAction, match="Duisburg is full: Step 2 allows 2"):
        GAME.apply(state, BuildCity(2, "duisburg"))
    step3 = position(state, step=3)
    assert prices(step3, 2)[city("germany", "duisburg")] == 20


def test_each_player_has_22_houses():
    many = [
        "flensburg",
        "kiel",
        "hamburg",
        "cuxhaven",
        "wilhelmshaven",
        "bremen",
        "hannover",
        "osnabruck",
        "munster",
        "essen",
        "duisburg",
        "dortmund",
        "dusseldorf",
        "kassel",
        "aachen",
        "koln",
        "trier",
        "wiesbaden",
        "frankfurtm",
        "saarbrucken",
        "mannheim",
        "halle",
    ]
    state = building(s3={"cities": many, "money": 500})
    with pytest.raises(IllegalAction, match="built all your 22 houses"):
        GAME.apply(state, BuildCity(3, "leipzig"))
    assert [a for a in GAME.legal_actions(state, 3) if isinstance(a, BuildCity)] == []


TWELVE = [
    "essen",
    "duisburg",
    "dortmund",
    "dusseldorf",
    "munster",
    "koln",
    "aachen",
    "osnabruck",
    "kassel",
    "bremen",
    "hannover",
    "hamburg",
]


def test_plants_at_or_below_the_most_cities_leave_at_once_after_each_house():
    state = building(s3={"cities": TWELVE, "money": 200})
    assert len(state.players[3].cities) == 12
    state = play(state, BuildCity(3, "trier"))
    assert 13 in state.removed and GAME.current_seats(state) == (TABLE,)
    assert "Remove plant 13 from the game" in texts(state)
    state = play(state, RevealPlant(TABLE, 30))
    assert state.market == (14, 15, 16, 17, 18, 19, 20, 30)
    assert GAME.current_seats(state) == (3,)  # the builder goes on


def test_plants_at_or_below_the_most_cities_leave_after_every_draw():
    state = start(4, order=(0, 1, 2, 3))
    state = position(
        state,
        round=5,
        market=(16, 17, 18, 19, 20, 21, 22, 23),
        deck=(0,) * 10,
        players={
            0: {
                "plants": [4],
                "cities": [
                    "kiel",
                    "hamburg",
                    "lubeck",
                    "rostock",
                    "schwerin",
                    "bremen",
                    "hannover",
                    "cuxhaven",
                    "flensburg",
                    "wilhelmshaven",
                    "torgelow",
                    "magdeburg",
                    "berlin",
                    "frankfurto",
                    "osnabruck",
                ],
            }
        },
    )
    state = play(state, OpenAuction(0, 16, 16), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 14))
    # Plant 14 came up while a player has 15 cities: out at once, and another is drawn.
    assert 14 in state.removed and GAME.current_seats(state) == (TABLE,)
    state = play(state, RevealPlant(TABLE, 33))
    assert state.market == (17, 18, 19, 20, 21, 22, 23, 33)
