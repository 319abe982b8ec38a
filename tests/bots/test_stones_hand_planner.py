"""The strong Shifting Stones policy (the hand planner): its turn plan, which cards pay the moves, and junk spending."""

from __future__ import annotations

import dataclasses
import random

from companion.bots import make_bot
from companion.bots.shifting_stones import (
    CARD_BONUS,
    CYCLE,
    HandPlanner,
    _hand_plan,
    fresh_value,
    keep_value,
)
from companion.core import get_game
from companion.games.shifting_stones.actions import FlipStone, ScoreCard, ShiftStones
from companion.games.shifting_stones.distance import Move
from companion.games.shifting_stones.hints import turn_plan
from companion.games.shifting_stones.patterns import PATTERNS
from companion.games.shifting_stones.state import StonesState
from companion.testing.harness import playout

GAME = get_game("shifting_stones")


def turn_starts(seeds: range) -> list[StonesState]:
    """States where a player is to begin a turn, from games of `normal` bots."""
    policy = make_bot("shifting_stones", "normal")
    found = []
    for seed in seeds:
        result = playout(GAME, 3, seed, bots=dict.fromkeys(range(3), policy), check=False)  # type: ignore[arg-type]
        state = GAME.setup(result.config, random.Random(seed))
        for action in result.actions:
            if state.phase == "play" and state.acted == 0:
                found.append(state)
            state, _ = GAME.apply(state, action)
    return found


def _move(action: ShiftStones | FlipStone) -> Move:
    return Move(action.cell) if isinstance(action, FlipStone) else Move(action.a, action.b)


def test_the_plan_scores_the_most_points_plus_cards_and_pays_with_the_cards_least_worth_keeping() -> None:
    differs = 0
    for state in turn_starts(range(3)):
        seat, hand, grid = state.turn, state.players[state.turn].hand, state.codes()
        _, plan = _hand_plan(grid, hand, seat)
        scored = [a.card for a in plan if isinstance(a, ScoreCard)]
        moves = [a for a in plan if isinstance(a, ShiftStones | FlipStone)]
        # Played out, the plan is legal and scores what it says.
        after = state
        for action in plan:
            assert action in GAME.legal_actions(after, seat)
            after, _ = GAME.apply(after, action)
        assert after.players[seat].scored[len(state.players[seat].scored):] == tuple(scored)
        # Nothing scores more points plus cards (the greedy plan is one candidate).
        _, greedy, _ = turn_plan(state, seat)
        greedy_cards = [a.card for a in greedy if isinstance(a, ScoreCard)]
        def worth(cards: list[str]) -> int:
            return sum(PATTERNS[c].points + CARD_BONUS for c in cards)
        assert worth(scored) >= worth(greedy_cards)
        # The cards spent are worth no more, on the grid the turn leaves, than any card kept.
        final = grid
        for action in moves:
            final = _move(action).on(final)
        spent = {a.card for a in moves}
        kept = [c for c in hand if c not in spent and c not in scored]
        for card in spent:
            assert all(keep_value(final, card) <= keep_value(final, k) for k in kept)
        differs += plan != tuple(greedy)
    assert differs > 0, "the hand planner never played another turn than the greedy planner"


def test_junk_is_spent_only_while_the_draw_refills_the_hand_and_only_when_a_fresh_card_is_worth_more() -> None:
    planner = HandPlanner()
    spent = 0
    for state in turn_starts(range(3, 7)):
        seat = state.turn
        # Play the turn's plan, then ask what it does with the cards left.
        while True:
            legal = GAME.legal_actions(state, seat)
            step = planner.scoring_step(state, seat, legal)
            if step is None:
                break
            state, _ = GAME.apply(state, step)
        hand, grid = state.players[seat].hand, state.codes()
        action = planner.cycle_step(state, seat, GAME.legal_actions(state, seat))
        if action is None:
            continue
        spent += 1
        assert isinstance(action, ShiftStones | FlipStone)
        assert action in GAME.legal_actions(state, seat)
        assert 2 <= len(hand) <= 4
        assert keep_value(grid, action.card) == min(keep_value(grid, c) for c in hand)
        assert keep_value(grid, action.card) < CYCLE * fresh_value(state, seat, grid)
    assert spent > 0, "the hand planner never spent a junk card"


def test_a_hand_the_draw_does_not_refill_is_never_spent_on_junk() -> None:
    state = turn_starts(range(1))[5]
    seat = state.turn
    grid = state.codes()
    unseen = [c for c in PATTERNS if all(c not in p.hand and c not in p.scored for p in state.players)
              and c not in state.discard]
    junk = sorted(unseen, key=lambda c: (keep_value(grid, c), c))

    def holding(cards: list[str]) -> StonesState:
        players = list(state.players)
        players[seat] = dataclasses.replace(players[seat], hand=tuple(cards))
        return dataclasses.replace(state, players=tuple(players), acted=1)

    four, six = holding(junk[:4]), holding(junk[:6])
    assert HandPlanner().cycle_step(four, seat, GAME.legal_actions(four, seat)) is not None
    assert HandPlanner().cycle_step(six, seat, GAME.legal_actions(six, seat)) is None
