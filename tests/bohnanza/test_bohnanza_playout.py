"""The shared playout harness on Bohnanza, for 2–7 players in both chance modes, with the game's invariants."""

from __future__ import annotations

import json
import random

import pytest
from bohnanza_table import GAME, conserved

from companion.core import TABLE
from companion.games.bohnanza.actions import Harvest
from companion.games.bohnanza.beans import BEANS, PLAYER_COUNTS, bean_of
from companion.games.bohnanza.bots import TraderBot
from companion.games.bohnanza.state import BohnanzaState
from companion.testing.harness import PlayoutFailure, playout, selfplay

# Few offers a turn keep random games short enough to check every step; one game runs with the default.
QUICK = {"offers_per_turn": 3}


def no_hand_in_other_views(state: BohnanzaState, config: object) -> None:
    """No hand card shows in the public view or in another seat's view."""
    views = {None: json.dumps(GAME.view(state, None))}
    views.update({s: json.dumps(GAME.view(state, s)) for s in range(len(state.players))})
    for owner, p in enumerate(state.players):
        for seat, text in views.items():
            if seat != owner:
                leaked = [c for c in p.hand if f'"{c}"' in text]
                assert not leaked, f"seat {owner}'s {leaked} in the view of {seat}"


def well_formed(state: BohnanzaState, config: object) -> None:
    """Offers name cards where they are; at most three fields; the physical deck has no order."""
    for o in state.offers:
        assert o.sender == state.active or o.receiver == state.active
        assert all(c in state.players[o.sender].hand or c in state.face_up for c in o.give)
    assert all(2 <= len(p.fields) <= 3 for p in state.players)
    if state.rules.physical:
        assert list(state.deck) == sorted(state.deck)
    if any(p.set_aside for p in state.players):
        assert state.step in ("trade", "plant_set_aside")


INVARIANTS = (conserved, well_formed)


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_play_to_the_end_digital(players):
    result = playout(GAME, players, players, options=QUICK, invariants=INVARIANTS)
    assert result.finished
    assert GAME.is_over(result.final_state) and result.final_state.exhaustions >= 1


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_run_physical_with_the_table_revealing_every_card(players):
    result = playout(GAME, players, 11, mode="physical", options=QUICK, invariants=INVARIANTS, max_steps=250)
    assert sum(a.seat == TABLE for a in result.actions) > sum(PLAYER_COUNTS[players].hands)


def test_physical_duels_play_to_the_end():
    for seed in range(3):
        assert playout(GAME, 2, seed, mode="physical", invariants=INVARIANTS).finished


@pytest.mark.parametrize("players", range(2, 8))
def test_unchecked_random_games_end_for_every_player_count_and_both_modes(players):
    for seed in range(3):
        for mode in ("digital", "physical"):
            result = playout(GAME, players, seed, mode=mode, options=QUICK, check=False)
            assert result.finished and len(result.actions) < GAME.max_game_length
            conserved(result.final_state)


def test_random_play_with_the_default_options_keeps_hands_out_of_other_views():
    playout(GAME, 4, 21, invariants=(*INVARIANTS, no_hand_in_other_views), max_steps=300)


def test_the_duel_with_a_third_field_from_the_start_plays_to_the_end():
    for mode in ("digital", "physical"):
        result = playout(GAME, 2, 8, mode=mode, options={"duel_third_field_start": True}, invariants=INVARIANTS)
        assert result.finished


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_trader_bots_play_checked_games_and_trade(players):
    bot = TraderBot()
    # Trades put cards in offers, so one of these games also looks for hand cards in every other view.
    invariants = (*INVARIANTS, no_hand_in_other_views) if players == 3 else INVARIANTS
    result = playout(GAME, players, 3, bots={s: bot for s in range(players)}, invariants=invariants)
    assert result.finished
    kinds = {a.kind for a in result.actions}
    if players > 2:
        assert {"offer_trade", "accept_offer"} <= kinds
    assert max(result.scores["scores"]) > 0


def test_trader_bots_outscore_random_play():
    summary = selfplay(GAME, 4, 3, seed=40, bot="trader")
    assert summary.finished == 3 and not summary.failures
    bot = TraderBot()
    trader_coins = sum(
        sum(playout(GAME, 4, s, bots={i: bot for i in range(4)}, check=False).scores["scores"]) for s in range(3)
    )
    random_coins = sum(sum(playout(GAME, 4, s, options=QUICK, check=False).scores["scores"]) for s in range(3))
    assert trader_coins > 10 * (random_coins + 1)


def test_the_bots_are_named_for_selfplay():
    assert set(GAME.bots()) == {"random", "trader"}


def test_off_its_turn_the_trader_passes_unless_a_field_can_pay_no_more():
    bot = TraderBot()
    result = playout(GAME, 4, 2, bots={s: bot for s in range(4)}, check=False)
    state = GAME.setup(result.config, random.Random(2))
    for action in result.actions:
        if isinstance(action, Harvest) and action.seat != state.active and state.step != "plant_set_aside":
            field = state.players[action.seat].fields[action.field]
            assert BEANS[bean_of(field[0])].next_rung(len(field)) is None
        state, _ = GAME.apply(state, action)
    assert state.over


def test_the_harness_fails_a_game_in_which_every_seat_passes():
    class Passing:
        def choose(self, game, state, seat, legal, rng):
            return None

    with pytest.raises(PlayoutFailure, match="every seat that may act declined"):
        playout(GAME, 3, 1, bots={s: Passing() for s in range(3)})
