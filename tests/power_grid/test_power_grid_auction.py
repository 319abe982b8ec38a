"""Phase 2, the plant auction, and the plant limit, as RULINGS.md reads them."""

from __future__ import annotations

import dataclasses

import pytest
from pg_table import GAME, money, plants_of, play, position, start, stock_of, texts

from companion.core import TABLE, IllegalAction, NotYourTurn
from companion.games.power_grid.actions import (
    Bid,
    DeclineToOpen,
    DiscardPlant,
    FinishDiscard,
    MoveResources,
    OpenAuction,
    Pass,
    RevealPlant,
)
from companion.games.power_grid.resources import supply


def fresh():
    return start(4, order=(0, 1, 2, 3))


def test_minimum_opening_bid_is_the_plant_number():
    state = fresh()
    with pytest.raises(IllegalAction, match="plant 6 needs a bid of at least 6"):
        GAME.apply(state, OpenAuction(0, 6, 5))
    with pytest.raises(IllegalAction, match="future market"):
        GAME.apply(state, OpenAuction(0, 8, 8))
    with pytest.raises(IllegalAction, match="only 50 Elektro"):
        GAME.apply(state, OpenAuction(0, 6, 51))
    assert all(a.bid >= a.plant for a in GAME.legal_actions(state, 0) if isinstance(a, OpenAuction))


def test_bidding_goes_round_in_turn_order_among_players_still_in_and_a_pass_leaves():
    state = play(fresh(), OpenAuction(0, 4, 4))
    assert GAME.current_seats(state) == (1,)
    state = play(state, Bid(1, 5))
    assert GAME.current_seats(state) == (2,)
    with pytest.raises(IllegalAction, match="bid at least 6"):
        GAME.apply(state, Bid(2, 5))
    state = play(state, Pass(2), Bid(3, 7))
    assert GAME.current_seats(state) == (0,)  # seat 2 passed and is skipped from now on
    state = play(state, Bid(0, 8), Pass(1))
    assert GAME.current_seats(state) == (3,)
    state = play(state, Pass(3))
    assert plants_of(state, 0) == [4] and money(state)[0] == 42
    assert texts(state)[0] == "Give plant 4 to player 1"  # seat 0, worded 1-based


def test_a_player_buys_at_most_one_plant_a_round_and_the_next_unbought_player_opens():
    state = play(fresh(), OpenAuction(0, 4, 4), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 13))
    # The opener won: the next player in order who has not bought opens; seat 0 is out of the auctions.
    assert GAME.current_seats(state) == (1,)
    state = play(state, OpenAuction(1, 3, 3))
    assert state.auction is not None and 0 not in state.auction.active
    with pytest.raises(NotYourTurn):
        GAME.apply(state, Bid(0, 5))


def test_when_the_winner_was_not_the_opener_the_opener_opens_again():
    state = play(fresh(), OpenAuction(0, 4, 4), Bid(1, 5), Pass(2), Pass(3), Pass(0), RevealPlant(TABLE, 13))
    assert plants_of(state, 1) == [4]
    assert GAME.current_seats(state) == (0,) and state.auction is None


def test_everyone_must_buy_a_plant_in_round_1():
    state = fresh()
    assert not any(isinstance(a, DeclineToOpen) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="must buy a plant in round 1"):
        GAME.apply(state, DeclineToOpen(0))


def later_round():
    """Round 2 of a 4-player game: everyone owns one plant, the market is 5-8 / 9, 10, 13, 20."""
    state = fresh()
    return position(
        state,
        players={s: {"plants": [p]} for s, p in zip(range(4), (3, 4, 6, 7))},
        round=2,
        market=(5, 8, 9, 10, 11, 12, 13, 20),
        pool=state.pool - {11, 12, 20},
        deck=(0, 0, 0, 0, 0),
    )


def test_a_player_may_decline_to_open_and_buys_nothing_this_round():
    state = later_round()
    assert DeclineToOpen(0) in GAME.legal_actions(state, 0)
    state = play(state, DeclineToOpen(0), OpenAuction(1, 5, 5))
    assert 0 not in state.auction.active


def test_if_nobody_buys_the_lowest_plant_is_removed_and_replaced():
    state = play(later_round(), DeclineToOpen(0), DeclineToOpen(1), DeclineToOpen(2), DeclineToOpen(3))
    assert GAME.current_seats(state) == (TABLE,)
    assert 5 in state.removed and 5 not in state.market
    assert "Remove plant 5 from the game" in texts(state)
    state = play(state, RevealPlant(TABLE, 30))
    assert state.market == (8, 9, 10, 11, 12, 13, 20, 30) and state.phase == "resources"


def test_max_plants_discard_an_old_plant_and_move_its_resources_or_return_them():
    state = later_round()
    state = position(
        state,
        players={0: {"plants": [(4, {"coal": 4}), (10, {"coal": 1}), (12, {"oil": 3})], "money": 60}},
    )
    before = supply(state)
    state = play(state, OpenAuction(0, 8, 8), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 40))
    assert GAME.current_seats(state) == (0,) and state.discard is not None
    assert {a.plant for a in GAME.legal_actions(state, 0) if isinstance(a, DiscardPlant)} == {4, 10, 12}
    with pytest.raises(IllegalAction, match="just bought"):
        GAME.apply(state, DiscardPlant(0, 8))
    state = play(state, DiscardPlant(0, 4))
    # The buyer chooses where the coal goes: two onto plant 8, one onto the hybrid; the last one back to the supply.
    with pytest.raises(IllegalAction, match="plant 12 has room for 1 more"):
        GAME.apply(state, MoveResources(0, 4, 12, "coal", 2))
    state = play(state, MoveResources(0, 4, 8, "coal", 2), MoveResources(0, 4, 12, "coal", 1), FinishDiscard(0))
    assert plants_of(state, 0) == [8, 10, 12]
    assert stock_of(state, 0, 8) == (2, 0, 0, 0) and stock_of(state, 0, 12) == (1, 3, 0, 0)
    assert supply(state)[0] == before[0] + 1
    assert 4 in state.removed and "Return 1 coal from plant 4 to the supply" in texts(state)
    assert GAME.current_seats(state) == (1,)


def rearranging_buyer():
    # Plant 3 (4 oil), plant 4 (empty), hybrid 5 (2 coal + 2 oil, full); buying plant 8 is one plant too many.
    state = position(
        later_round(), players={0: {"plants": [(3, {"oil": 4}), 4, (5, {"coal": 2, "oil": 2})], "money": 60}}
    )
    return play(state, OpenAuction(0, 8, 8), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 40))


def test_a_discard_may_follow_a_rearrangement_then_the_player_keeps_what_fits():
    state = rearranging_buyer()
    before = supply(state)
    assert MoveResources(0, 5, 4, "coal", 2) in GAME.legal_actions(state, 0)
    state = play(state, MoveResources(0, 5, 4, "coal", 2), DiscardPlant(0, 3))
    assert state.discard is not None and state.discard.plant == 3  # 2 oil of plant 3 may still go onto plant 5
    state = play(state, MoveResources(0, 3, 5, "oil", 2))
    # Nothing more fits: the rest goes back to the supply at once.
    assert state.discard is None and plants_of(state, 0) == [4, 5, 8]
    assert stock_of(state, 0, 4) == (2, 0, 0, 0) and stock_of(state, 0, 5) == (0, 4, 0, 0)
    assert supply(state)[1] == before[1] + 2
    assert texts(state) == [
        "Move 2 oil from plant 3 to plant 5",
        "Return 2 oil from plant 3 to the supply",
        "Remove plant 3 from the game",
    ]


def test_a_discard_may_be_named_before_the_rearrangement_too():
    state = play(rearranging_buyer(), DiscardPlant(0, 3))
    # The hybrid is full, but moving its coal to plant 4 makes room: the discard waits for the player.
    assert state.discard is not None and state.discard.plant == 3
    assert MoveResources(0, 5, 4, "coal", 2) in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="plant 3 is being discarded: move resources off it, not onto it"):
        GAME.apply(state, MoveResources(0, 5, 3, "oil", 1))
    state = play(state, MoveResources(0, 5, 4, "coal", 2), MoveResources(0, 3, 5, "oil", 2))
    assert state.discard is None and stock_of(state, 0, 5) == (0, 4, 0, 0) and stock_of(state, 0, 4) == (2, 0, 0, 0)


def test_resources_move_between_own_plants_at_any_time():
    state = position(later_round(), players={2: {"plants": [(4, {"coal": 2}), 8]}})
    assert GAME.current_seats(state) == (0,)
    moved = play(state, MoveResources(2, 4, 8, "coal", 2))  # seat 2 moves during seat 0's choice
    assert stock_of(moved, 2, 8) == (2, 0, 0, 0) and GAME.current_seats(moved) == (0,)
    assert GAME.turn_id(moved) == GAME.turn_id(state)
    with pytest.raises(IllegalAction, match="plant 4 holds only 0 coal"):
        GAME.apply(moved, MoveResources(2, 4, 8, "coal", 1))


def test_the_player_choosing_a_plant_may_move_resources_too_and_keeps_the_turn():
    # RULINGS: at any time, so also on one's own turn to open an auction or to bid.
    state = position(later_round(), players={0: {"plants": [(4, {"coal": 2}), 8]}})
    assert GAME.current_seats(state) == (0,)
    assert MoveResources(0, 4, 8, "coal", 2) in GAME.legal_actions(state, 0)
    moved = play(state, MoveResources(0, 4, 8, "coal", 2))
    assert stock_of(moved, 0, 8) == (2, 0, 0, 0) and GAME.current_seats(moved) == (0,)
    assert moved.auction is None and moved.phase == "auction"
    assert set(GAME.legal_actions(moved, 0)) - set(GAME.legal_actions(state, 0)) <= {
        a for a in GAME.legal_actions(moved, 0) if isinstance(a, MoveResources)}


def accepted_moves(state, seat):
    """Every move of tokens between the seat's plants that the engine accepts now (counts 0 to 7 tried)."""
    plants = [h.plant for h in state.players[seat].plants]
    out = set()
    for src in plants:
        for dst in plants:
            for resource in ("coal", "oil", "garbage", "uranium"):
                for count in range(8):
                    action = MoveResources(seat, src, dst, resource, count)
                    try:
                        GAME.apply(state, action)
                    except IllegalAction:
                        continue
                    out.add(action)
    return out


def test_legal_actions_list_every_move_the_engine_accepts_off_turn():
    # RULINGS: resources move between one's own plants at any time, so a seat whose turn it is not has them.
    state = position(later_round(), players={2: {"plants": [(5, {"coal": 1, "oil": 2}), (4, {"coal": 2}), 8]}})
    assert GAME.current_seats(state) == (0,)
    listed = GAME.legal_actions(state, 2)
    assert listed and all(isinstance(a, MoveResources) for a in listed)
    assert set(listed) == accepted_moves(state, 2)
    assert MoveResources(2, 4, 8, "coal", 2) in listed and MoveResources(2, 5, 4, "oil", 1) not in listed
    assert GAME.legal_actions(state, 1) == [] == sorted(accepted_moves(state, 1))  # plant 4, nothing to move
    assert GAME.legal_actions(state, TABLE) == []


def test_legal_actions_list_the_moves_while_building_and_firing_too():
    for phase in ("building", "bureaucracy"):
        state = position(later_round(), phase=phase, queue=(3, 2, 1, 0),
                         players={3: {"plants": [(5, {"oil": 2}), (4, {"coal": 1})]}})
        assert 3 in GAME.current_seats(state)
        moves = [a for a in GAME.legal_actions(state, 3) if isinstance(a, MoveResources)]
        assert set(moves) == accepted_moves(state, 3) == {MoveResources(3, 4, 5, "coal", 1)}, phase


def test_two_players_may_hold_four_plants():
    state = start(2, order=(0, 1))
    state = position(
        state,
        players={0: {"plants": [3, 4, 5]}, 1: {"plants": [6]}},
        round=2,
        market=(7, 8, 9, 10, 11, 12, 13, 14),
        deck=(0,) * 10,
        pool=state.pool - {11, 12, 14},
    )
    state = play(state, OpenAuction(0, 7, 7), Pass(1))
    assert state.discard is None and plants_of(state, 0) == [3, 4, 5, 7]
    state = play(state, RevealPlant(TABLE, 30), OpenAuction(1, 8, 8), RevealPlant(TABLE, 31))
    assert state.phase == "resources"
    state = dataclasses.replace(state, phase="auction", done=(), bought=(), queue=())
    state = play(state, OpenAuction(0, 9, 9), Pass(1), RevealPlant(TABLE, 32))
    assert state.discard is not None and state.discard.seat == 0


def test_discarding_a_plant_with_nowhere_to_move_its_resources_returns_them_at_once():
    state = position(later_round(), players={0: {"plants": [(6, {"garbage": 2}), 4, 7], "money": 60}})
    state = play(state, OpenAuction(0, 8, 8), Pass(1), Pass(2), Pass(3), RevealPlant(TABLE, 40), DiscardPlant(0, 6))
    assert state.discard is None and plants_of(state, 0) == [4, 7, 8]
    assert "Return 2 garbage from plant 6 to the supply" in texts(state)
