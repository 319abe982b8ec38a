"""The input tables of docs/play.md, from the bindings of the router and its games: `python -m companion.play.docs`."""

from __future__ import annotations

from collections.abc import Sequence

from companion.core.registry import get_game
from companion.play import router
from companion.play.router import Binding, inputs_for

GAMES: tuple[str, ...] = ("power_grid", "bohnanza", "shifting_stones")


def table(bindings: Sequence[Binding]) -> str:
    rows = ["| phase | input | does |", "|---|---|---|"]
    rows += [f"| {b.phase} | {b.input} | {b.meaning} |" for b in bindings]
    return "\n".join(rows) + "\n"


def tables() -> str:
    """Every game's table, after the one for what all games share."""
    parts = ["#### Every game\n\n" + table(router.BINDINGS)]
    for name in GAMES:
        parts.append(f"#### {get_game(name).title}\n\n" + table(inputs_for(name).BINDINGS))
    return "\n".join(parts)


if __name__ == "__main__":
    print(tables(), end="")
