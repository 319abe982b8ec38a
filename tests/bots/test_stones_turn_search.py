"""The strong Shifting Stones level (the turn search): its candidate turns, its default, and that it plays a chosen
turn through to the end."""

from __future__ import annotations

import random

from companion.bots import Budget, make_bot
from companion.bots.shifting_stones import (
    TURN_WEIGHTS,
    HandPlanner,
    TurnSearcher,
    _card_sets,
    _hand_plan,
    _set_plan,
    _weighted_plan,
)
from companion.core import get_game
from companion.games.shifting_stones.actions import ScoreCard, SkipTurn
from companion.games.shifting_stones.state import StonesState
from tests.bots.test_stones_hand_planner import turn_starts

GAME = get_game("shifting_stones")


def test_the_strong_level_is_the_turn_search() -> None:
    assert isinstance(make_bot("shifting_stones", "strong"), TurnSearcher)


def test_the_candidates_are_distinct_legal_turns_and_the_hand_planners_comes_first() -> None:
    several = 0
    for state in turn_starts(range(2))[::3]:
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        turns = TurnSearcher(Budget(iterations=2)).candidates(state, seat, legal)
        assert len(set(turns)) == len(turns)
        points, plan = _hand_plan(state.codes(), state.players[seat].hand, seat)
        assert turns[0] == (plan if points > 0 else ())
        for turn in turns:
            after = state
            for action in turn:
                assert action in GAME.legal_actions(after, seat)
                after, _ = GAME.apply(after, action)
        assert ((SkipTurn(seat),) in turns) == (SkipTurn(seat) in legal)
        several += len(turns) > 1
    assert several > 0


def test_every_card_the_turn_can_score_and_every_pair_it_can_score_together_has_a_candidate_turn() -> None:
    # The weightings alone all aim at the most points; the sets of cards give the search the turns that keep a
    # card for later or score a cheaper pair instead.
    wider = 0
    for state in turn_starts(range(2))[::3]:
        seat = state.turn
        hand = state.players[seat].hand
        legal = GAME.legal_actions(state, seat)
        turns = TurnSearcher(Budget(iterations=1)).candidates(state, seat, legal)
        scored = [frozenset(a.card for a in turn if isinstance(a, ScoreCard)) for turn in turns]
        for members in _card_sets(len(hand)):
            points, actions = _set_plan(state.codes(), hand, seat, members)
            if points == 0:
                continue
            # The set plan scores as many of the set's cards as any turn can: a candidate scores just those.
            aimed = frozenset(a.card for a in actions if isinstance(a, ScoreCard))
            assert aimed & {hand[i] for i in members}
            assert aimed in scored
        weightings = {frozenset(a.card for a in _weighted_plan(state.codes(), hand, seat, w)[1]
                                if isinstance(a, ScoreCard)) for w in TURN_WEIGHTS}
        wider += any(s not in weightings for s in scored if s)
    assert wider > 0


def test_the_sets_share_the_budget_so_a_large_hand_cannot_overrun_it() -> None:
    # The pairs of a skipping player's large hand are many exact searches, so the sets stop once a tenth of the
    # budget is gone: a budget already spent leaves only the weightings' turns (and the skip); iterations alone
    # (no clock) try every set.
    state = next(s for s in turn_starts(range(1)) if len(s.players[s.turn].hand) > 1)
    seat = state.turn
    legal = GAME.legal_actions(state, seat)
    hand = state.players[seat].hand
    spent = TurnSearcher(Budget(seconds=1e-9)).candidates(state, seat, legal)
    every = TurnSearcher(Budget(iterations=1)).candidates(state, seat, legal)
    weightings = [a for w in TURN_WEIGHTS if (a := _weighted_plan(state.codes(), hand, seat, w))[0] > 0]
    assert len(spent) <= len(set(weightings)) + 1 + (SkipTurn(seat) in legal)
    assert set(spent) <= set(every)
    assert len(every) > len(spent)


def test_without_evidence_it_plays_the_hand_planners_move() -> None:
    # One sampled world is no evidence (no spread to judge a difference by): the hand planner's turn stands.
    for state in turn_starts(range(1))[::4]:
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        bot = TurnSearcher(Budget(iterations=1))
        assert bot.choose(GAME, state, seat, legal, random.Random(3)) == \
            HandPlanner().choose(GAME, state, seat, legal, random.Random(3))


class _Second(TurnSearcher):
    """Always finds the second candidate better (to see that a chosen turn is played through)."""

    def _search(self, game: object, info: StonesState, seat: int, turns: list, rng: random.Random) -> int:  # type: ignore[override]
        return 1


def test_a_chosen_turn_is_played_through_by_a_new_bot_at_each_step() -> None:
    played = 0
    for state in turn_starts(range(2, 4))[::2]:
        seat = state.turn
        turns = TurnSearcher(Budget(iterations=1)).candidates(state, seat, GAME.legal_actions(state, seat))
        if len(turns) < 2 or not any(isinstance(a, ScoreCard) for a in turns[1]):
            continue
        first = _Second(Budget(iterations=1)).choose(GAME, state, seat, GAME.legal_actions(state, seat),
                                                    random.Random(1))
        assert first == turns[1][0]
        after = GAME.apply(state, first)[0]
        for expected in turns[1][1:]:
            # A new bot for each step, as the server's worker makes one: the turn chosen goes on.
            action = TurnSearcher(Budget(iterations=1)).choose(GAME, after, seat, GAME.legal_actions(after, seat),
                                                               random.Random(1))
            assert action == expected
            after = GAME.apply(after, action)[0]
        played += 1
    assert played > 0
