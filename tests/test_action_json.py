"""An action's JSON (the quick path every view's legal actions take) is exactly what the general encoder gives."""

from __future__ import annotations

import random

import pytest

from companion.core.registry import all_games
from companion.core.serial import to_json
from companion.testing.harness import choose_actor


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_legal_actions_json_equals_the_general_encoding_in_the_same_key_order(name):
    game = all_games()[name]
    state = game.setup(game.make_config(game.max_players), random.Random(2))
    rng = random.Random(3)
    checked = 0
    for _ in range(150):
        if game.is_over(state):
            break
        for seat in game.current_seats(state):
            for action in game.legal_actions(state, seat):
                data = to_json(action)
                expected = {"seat": data.pop("seat"), "action": action.kind, **data}
                got = action.to_json()
                assert got == expected and list(got) == list(expected), action
                assert action == game.actions.parse(got)
                checked += 1
        pick = choose_actor(game, state, rng)
        if pick is None:
            break
        state, _ = game.apply(state, rng.choice(pick[1]))
    assert checked >= 20
