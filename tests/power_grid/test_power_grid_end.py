"""The end of the game, the winner and its tie-breaks, and money open or hidden, as RULINGS.md reads them."""

from __future__ import annotations

import random

import pytest
from pg_table import GAME, money, play, position, start, texts

from companion.core import HOST, IllegalAction
from companion.games.power_grid.actions import AdjustMoney, BuildCity, EndBuilding
from companion.games.power_grid.data import MAPS

SIXTEEN = [
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
]


def building(players: int = 4, **seats):
    state = start(players, order=tuple(range(players)))
    return position(
        state,
        phase="building",
        queue=tuple(reversed(range(players))),
        step=2,
        round=12,
        market=(30, 31, 32, 33, 34, 35, 36, 37),
        players={int(k[1:]): v for k, v in seats.items()},
    )


def test_the_game_ends_after_phase_4_in_which_someone_reaches_17_cities():
    state = building(s3={"cities": SIXTEEN, "plants": [(31, {"coal": 3})], "money": 100})
    state = play(state, BuildCity(3, "essen"))
    assert state.phase == "building" and not GAME.is_over(state)  # the others still build this phase
    state = play(state, EndBuilding(3), BuildCity(2, "dortmund"), EndBuilding(2), EndBuilding(1))
    before = money(state)
    state = play(state, EndBuilding(0))
    assert GAME.is_over(state) and GAME.current_seats(state) == ()
    assert money(state) == before  # no further income
    assert texts(state) == ["The game is over: see the scores"]


@pytest.mark.parametrize(("players", "end"), [(2, 21), (3, 17), (4, 17), (5, 15), (6, 14)])
def test_end_threshold_by_player_count(players, end):
    game_map = MAPS["germany"]
    state = start(players)
    ids = [game_map.city_ids[c] for c in game_map.cities_in(state.regions)]
    for count, over in ((end - 1, False), (end, True)):
        s = position(state, phase="building", queue=(0,), players={0: {"cities": ids[:count]}})
        assert GAME.is_over(play(s, EndBuilding(0))) is over


def final(**seats):
    state = building(**seats)
    return GAME.scores(position(state, phase="over", queue=()))


def test_the_winner_powers_the_most_cities_with_what_they_hold_now():
    scores = final(
        s0={"plants": [(31, {"coal": 3}), (25, {"coal": 2})], "cities": SIXTEEN[:12], "money": 5},
        s1={"plants": [(31, {"coal": 2}), 27], "cities": SIXTEEN, "money": 90},
    )
    assert scores["scores"][:2] == [11, 3] and scores["winners"] == [0]


def test_ties_go_to_the_most_elektro_then_to_the_most_cities_then_shared():
    by_money = final(
        s0={"plants": [27], "cities": SIXTEEN[:5], "money": 30},
        s1={"plants": [27], "cities": SIXTEEN[5:10], "money": 31},
    )
    assert by_money["winners"] == [1]
    by_cities = final(
        s0={"plants": [27], "cities": SIXTEEN[:5], "money": 30},
        s1={"plants": [27], "cities": SIXTEEN[5:11], "money": 30},
    )
    assert by_cities["winners"] == [1]
    shared = final(
        s0={"plants": [27], "cities": SIXTEEN[:5], "money": 30},
        s1={"plants": [27], "cities": SIXTEEN[5:10], "money": 30},
    )
    assert shared["winners"] == [0, 1]


def test_money_is_hidden_by_default_and_each_phone_sees_its_own():
    state = start(3)
    public = GAME.view(state, None)
    assert all("money" not in p for p in public["players"])
    assert GAME.view(state, 1)["you"]["money"] == 50
    assert all("money" not in p for p in GAME.view(state, 1)["players"])
    other = GAME.indistinguishable(state, 1, random.Random(4))
    assert [p.money for p in other.players][1] == 50 and money(other) != money(state)


def test_option_open_money_shows_everyones_elektro():
    state = start(3, open_money=True)
    assert [p["money"] for p in GAME.view(state, None)["players"]] == [50, 50, 50]
    assert GAME.indistinguishable(state, 0, random.Random(1)).players == state.players


def test_the_host_corrects_money_when_table_and_companion_disagree():
    state = start(3)
    with pytest.raises(IllegalAction, match="only the host"):
        GAME.apply(state, AdjustMoney(0, 1, 5))
    state, log = GAME.apply(state, AdjustMoney(HOST, 1, -7))
    assert money(state) == [50, 43, 50] and state.corrections == -7
    assert log[0].render() == "The host corrected 1's Elektro by -7"
    with pytest.raises(IllegalAction, match="has only 43"):
        GAME.apply(state, AdjustMoney(HOST, 1, -44))
