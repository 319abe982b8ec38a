"""Step 2 and the Step 3 card in each phase, as RULINGS.md reads them."""

from __future__ import annotations

import pytest
from pg_table import GAME, play, position, start, texts

from companion.core import TABLE, IllegalAction
from companion.games.power_grid.actions import (
    BuildCity,
    DeclineToOpen,
    EndBuilding,
    EndBuying,
    Fire,
    OpenAuction,
    Pass,
    RevealPlant,
    RevealStep3,
)
from companion.games.power_grid.data import STEP3
from companion.games.power_grid.steps import step2_due

SIX = ["kiel", "hamburg", "lubeck", "rostock", "schwerin", "bremen"]
TWELVE = [*SIX, "hannover", "cuxhaven", "flensburg", "wilhelmshaven", "torgelow", "magdeburg"]


def building(step=1, deck=(0,) * 20 + (STEP3,), **players):
    state = start(4, order=(0, 1, 2, 3))
    return position(
        state,
        phase="building",
        queue=(3, 2, 1, 0),
        step=step,
        round=4,
        market=(13, 14, 15, 16, 17, 18, 19, 20),
        deck=deck,
        pool=state.pool - set(range(14, 21)),
        resources=(10, 10, 4, 2),
        players={int(k[1:]): v for k, v in players.items()},
    )


def fire_all(state):
    for seat in list(state.queue):
        state = play(state, GAME.legal_actions(state, seat)[0])
    return state


def test_step_2_begins_after_phase_4_when_someone_has_7_cities():
    state = building(s3={"cities": SIX, "money": 100}, s2={"cities": ["essen"]})
    state = play(state, BuildCity(3, "hannover"))
    assert state.step == 1  # not before the end of phase 4
    with pytest.raises(IllegalAction, match="Essen is full: Step 1 allows 1"):
        GAME.apply(state, BuildCity(3, "essen"))
    state = play(state, EndBuilding(3), EndBuilding(2), EndBuilding(1), EndBuilding(0))
    assert state.step == 2 and 13 in state.removed and state.phase == "bureaucracy"
    assert texts(state)[:2] == ["Step 2: a second house per city is now allowed", "Remove plant 13 from the game"]
    assert GAME.current_seats(state) == (TABLE,)
    state = play(state, RevealPlant(TABLE, 33))
    coal_before = state.resources[0]
    state = fire_all(state)
    assert state.resources[0] - coal_before == 6  # the Step 2 row for 4 players


@pytest.mark.parametrize(("players", "threshold"), [(2, 10), (3, 7), (4, 7), (5, 7), (6, 6)])
def test_step_2_threshold_by_player_count(players, threshold):
    from companion.games.power_grid.data import MAPS

    state = start(players)
    ids = [MAPS["germany"].city_ids[c] for c in MAPS["germany"].cities_in(state.regions)]
    below = position(state, players={0: {"cities": ids[: threshold - 1]}})
    at = position(state, players={0: {"cities": ids[:threshold]}})
    assert not step2_due(below) and step2_due(at)


def auctions(deck):
    state = start(4, order=(0, 1, 2, 3))
    return position(
        state,
        round=6,
        step=2,
        market=(21, 22, 23, 24, 25, 26, 27, 28),
        deck=deck,
        players={s: {"plants": [p], "money": 100} for s, p in zip(range(4), (10, 11, 12, 14))},
    )


def test_step3_card_drawn_in_phase_2_is_the_highest_future_plant_until_the_auctions_end():
    state = play(auctions((STEP3, 35)), OpenAuction(0, 21, 21), Pass(1), Pass(2), Pass(3))
    assert GAME.legal_actions(state, TABLE) == [RevealStep3(TABLE)]
    state = play(state, RevealStep3(TABLE))
    assert state.current_market() == (22, 23, 24, 25) and state.future_market() == (26, 27, 28, STEP3)
    assert "Put the Step 3 card at the end of the future market" in texts(state)
    state = play(state, OpenAuction(1, 22, 22), Pass(2), Pass(3))
    assert GAME.legal_actions(state, TABLE) == [RevealPlant(TABLE, 35)]  # the plant put under the deck earlier
    state = play(state, RevealPlant(TABLE, 35), DeclineToOpen(2), DeclineToOpen(3))
    # Phase 2 is over: the Step 3 card and the lowest plant go, without replacement; six plants, all current.
    assert state.market == (24, 25, 26, 27, 28, 35) and state.current_market() == state.market
    assert state.step == 3 and 23 in state.removed and state.phase == "resources"
    assert texts(state)[:3] == [
        "Remove the Step 3 card from the game",
        "Remove plant 23 from the game",
        "Shuffle the deck",
    ]
    for seat in (3, 2, 1, 0):
        state = play(state, EndBuying(seat))
    state = position(state, players={0: {"cities": ["kiel"]}, 1: {"cities": ["kiel"]}})
    assert BuildCity(3, "kiel") in GAME.legal_actions(state, 3)  # a third house is allowed at once


def test_step3_drawn_in_phase_4_begins_step_3_with_phase_5_from_step_2():
    many = TWELVE
    state = building(
        step=2, deck=(STEP3, 40), s3={"cities": many, "money": 100}, s0={"cities": ["essen"]}, s1={"cities": ["essen"]}
    )
    state = play(state, BuildCity(3, "berlin"))  # 13 cities: plant 13 leaves and a plant is drawn
    assert 13 in state.removed and GAME.legal_actions(state, TABLE) == [RevealStep3(TABLE)]
    state = play(state, RevealStep3(TABLE))
    assert state.market == (15, 16, 17, 18, 19, 20) and 14 in state.removed
    assert state.current_market() == state.market and state.future_market() == ()
    assert state.deck == (0,) and state.pool == frozenset({40})  # shuffled: the companion no longer knows its order
    assert "Step 3 begins with phase 5: this round's resupply uses the Step 3 row" in texts(state)
    # The rest of this phase 4 is still Step 2: no third house in Essen.
    with pytest.raises(IllegalAction, match="Essen is full: Step 2 allows 2"):
        GAME.apply(state, BuildCity(3, "essen"))
    state = play(state, EndBuilding(3), EndBuilding(2), EndBuilding(1), EndBuilding(0))
    assert state.step == 3 and state.phase == "bureaucracy"  # phase 5 is Step 3
    coal = state.resources[0]
    state = fire_all(state)
    assert state.resources[0] - coal == 4  # this phase 5 resupplies by the Step 3 row (4 players: 4 coal)
    assert 15 in state.removed  # ... and updates the market the Step 3 way: the lowest plant leaves
    state = play(state, RevealPlant(TABLE, 40))
    assert state.step == 3 and state.round == 5


def test_step3_drawn_in_phase_4_begins_step_3_with_phase_5_from_step_1():
    state = building(step=1, deck=(STEP3, 40), s3={"cities": TWELVE, "money": 100})
    state = play(state, BuildCity(3, "berlin"), RevealStep3(TABLE))
    assert state.step == 1  # the rest of phase 4 keeps Step 1
    state = play(state, EndBuilding(3), EndBuilding(2), EndBuilding(1), EndBuilding(0))
    # 13 cities is far past the Step 2 threshold, yet Step 2 (and its removal) is skipped: straight to Step 3.
    assert state.step == 3 and state.phase == "bureaucracy" and GAME.current_seats(state) != (TABLE,)
    assert state.removed == (13, STEP3, 14)
    coal = state.resources[0]
    state = fire_all(state)
    assert state.resources[0] - coal == 4  # the Step 3 row, not Step 1's 5
    assert 15 in state.removed
    state = play(state, RevealPlant(TABLE, 40))
    assert state.step == 3 and state.round == 5


def test_step3_drawn_as_step_2_begins_makes_that_phase_5_step_3():
    # Step 2's removal after phase 4 draws a replacement; the Step 3 card coming then is a phase 4 draw too.
    state = building(step=1, deck=(STEP3, 40), s3={"cities": SIX, "money": 100})
    state = play(state, BuildCity(3, "hannover"), EndBuilding(3), EndBuilding(2), EndBuilding(1), EndBuilding(0))
    assert state.step == 2 and GAME.legal_actions(state, TABLE) == [RevealStep3(TABLE)]
    state = play(state, RevealStep3(TABLE))
    assert state.step == 3 and state.phase == "bureaucracy"
    coal = state.resources[0]
    state = fire_all(state)
    assert state.resources[0] - coal == 4


def test_step3_card_drawn_in_phase_5_leaves_at_once_with_the_lowest_plant():
    state = building(deck=(STEP3, 38), step=2)
    state = play(state, EndBuilding(3), EndBuilding(2), EndBuilding(1), EndBuilding(0))
    coal = state.resources[0]
    state = fire_all(state)
    assert state.resources[0] - coal == 6  # the resupply came before the card: still the Step 2 row
    assert "Put plant 20 under the deck" in texts(state) and state.deck == (STEP3, 38, 20)
    state = play(state, RevealStep3(TABLE))
    assert state.market == (14, 15, 16, 17, 18, 19) and 13 in state.removed
    assert state.step == 3 and state.phase == "auction" and state.round == 5
    assert set(state.pool) == {38, 20}
    assert "Step 3: a third house per city is allowed from the next round" in texts(state)


def test_fire_is_refused_outside_bureaucracy():
    state = building()
    with pytest.raises(IllegalAction, match="time to build"):
        GAME.apply(state, Fire(3, (), 0))
