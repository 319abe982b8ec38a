"""Runs `companion script` as a subprocess from a rule scenario's state, so each ruling is also checked end to end."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.core import Action, Game


def script(
    game: Game[Any], state: Any, players: int, actions: Sequence[Action], *, mode: str = "digital"
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Apply `actions` to `state` through `companion script --state ... --final`: the per-line answers, and the
    final report (the public view, every seat's view, the scores)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "state.json"
        path.write_text(json.dumps(game.state_to_json(state)), encoding="utf-8")
        lines = "\n".join(json.dumps(a.to_json()) for a in actions)
        result = subprocess.run(
            [sys.executable, "-m", "companion", "script", game.name, "--players", str(players), "--seed", "0",
             "--mode", mode, "--state", str(path), "--final"],
            input=lines, capture_output=True, text=True, timeout=120, check=False,
        )
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    return out[:-1], out[-1]
