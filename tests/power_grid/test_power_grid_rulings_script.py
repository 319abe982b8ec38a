"""The rulings of issue 14 end to end: each scenario also goes through `companion script --state`."""

from __future__ import annotations

from pg_table import GAME, start
from script_cli import script
from test_power_grid_auction import rearranging_buyer
from test_power_grid_bureaucracy import firing
from test_power_grid_steps import TWELVE, building

from companion.core import TABLE
from companion.games.power_grid.actions import (
    Bid,
    BuildCity,
    DiscardPlant,
    EndBuilding,
    Fire,
    MoveResources,
    OpenAuction,
    Pass,
    RevealPlant,
    RevealStep3,
)
from companion.games.power_grid.data import STEP3


def plants(final, seat):
    return {p["plant"]: p["stock"] for p in final["public"]["players"][seat]["plants"]}


def texts(final):
    return [i["text"] for i in final["public"]["instructions"]]


def test_script_resources_move_at_any_time_and_a_discard_follows_a_rearrangement():
    answers, final = script(
        GAME,
        rearranging_buyer(),
        4,
        [MoveResources(0, 5, 4, "coal", 2), DiscardPlant(0, 3), MoveResources(0, 3, 5, "oil", 2)],
        mode="physical",
    )
    assert all(a["ok"] for a in answers), answers
    assert plants(final, 0) == {4: {"coal": 2}, 5: {"oil": 4}, 8: {}}
    assert "Return 2 oil from plant 3 to the supply" in texts(final)


def test_script_step3_drawn_in_phase_4_begins_step_3_with_phase_5():
    for step in (1, 2):
        state = building(step=step, deck=(STEP3, 40), s3={"cities": TWELVE, "money": 100})
        answers, final = script(
            GAME,
            state,
            4,
            [BuildCity(3, "berlin"), RevealStep3(TABLE), EndBuilding(3), EndBuilding(2), EndBuilding(1),
             EndBuilding(0)],
            mode="physical",
        )
        assert all(a["ok"] for a in answers), answers
        assert final["public"]["step"] == 3 and final["public"]["phase"] == "bureaucracy"


def test_script_firing_with_coal_on_another_plant_tells_the_table_to_move_it_to_the_firing_plant():
    answers, final = script(GAME, firing(s0={"plants": [(4, {"coal": 2}), 5], "cities": ["kiel"]}), 4,
                            [Fire(0, (5,), 2)], mode="physical")
    assert answers[0]["ok"] and answers[0]["log"][0].endswith("moved 2 coal from plant 4 to plant 5")
    assert texts(final) == ["Move 2 coal from plant 4 to plant 5 and burn them there (back to the supply)"]


def test_script_refuses_a_bid_from_a_player_who_already_bought_with_the_reason():
    state = start(4, order=(0, 1, 2, 3))
    answers, _ = script(
        GAME,
        state,
        4,
        [OpenAuction(0, 4, 4), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 13), OpenAuction(0, 3, 3),
         OpenAuction(1, 3, 3), Bid(0, 4)],
        mode="physical",
    )
    assert [a["ok"] for a in answers] == [True] * 5 + [False, True, False]
    out = "you bought plant 4 this round: you are out of the auctions until the next round"
    assert answers[5] == answers[7] == {"ok": False, "code": "not_your_turn", "error": out}
