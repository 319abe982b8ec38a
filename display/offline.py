"""A public envelope built in memory, without a server: random play for snapshots, tests and benches."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from companion.core.game import Game, GameConfig
from companion.core.log import LogMessage
from companion.core.registry import get_game
from companion.testing.harness import choose_actor
from display.model import DisplayModel

# The store's default colours, so offline pictures look like a real table.
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2")
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus")


def envelope(game: Game[Any], config: GameConfig, state: Any, log: list[LogMessage], state_id: int,
             session: int = 0) -> dict[str, Any]:
    """What the server's public stream would carry for this state (the same shape as Session.view(None))."""
    players = config.players
    body: dict[str, Any] = {
        "session": session,
        "game": game.name,
        "title": game.title,
        "state_id": state_id,
        "status": "over" if game.is_over(state) else "open",
        "mode": config.mode,
        "seat": None,
        "players": [{"seat": i, "name": NAMES[i % len(NAMES)], "colour": COLOURS[i % len(COLOURS)]}
                    for i in range(players)],
        "current_seats": list(game.current_seats(state)),
        "over": game.is_over(state),
        "view": game.view(state, None),
        "log": [m.to_json() for m in log[-30:] if m.visible(None)],
    }
    if body["over"]:
        body["scores"] = game.scores(state)
    return body


def play(
    game_name: str,
    players: int,
    seed: int,
    steps: int | None = None,
    *,
    mode: str = "digital",
    options: dict[str, Any] | None = None,
    model: DisplayModel | None = None,
) -> DisplayModel:
    """Random legal play from `seed` for `steps` actions (None: to the end), every public view fed to a model."""
    game = get_game(game_name)
    config = game.make_config(players, mode, options or {}, {})  # type: ignore[arg-type]
    state = game.setup(config, random.Random(seed))
    rng = random.Random(f"snapshot:{seed}")
    model = model or DisplayModel()
    log: deque[LogMessage] = deque(maxlen=60)
    done = 0
    model.set_envelope(envelope(game, config, state, list(log), done))
    limit = game.max_game_length if steps is None else steps
    while done < limit and not game.is_over(state):
        pick = choose_actor(game, state, rng)
        if pick is None:
            break
        _seat, legal = pick
        state, messages = game.apply(state, rng.choice(legal))
        log.extend(messages)
        done += 1
        model.set_envelope(envelope(game, config, state, list(log), done))
    model.dismiss_lobby()
    model.set_connection("live")
    return model
