"""The strong Shifting Stones level (the turn search): its candidate turns, its default, and that it plays a chosen
turn through to the end."""

from __future__ import annotations

import random

from companion.bots import Budget, make_bot
from companion.bots.shifting_stones import HandPlanner, TurnSearcher, _hand_plan
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
