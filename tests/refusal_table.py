"""Finds every refusal template a game's rules modules raise, so each game's test can hold the reviewed table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from companion.i18n.extract import ROOT, _literals, _name, python_files, refusal_classes


def refusal_templates(game: str) -> set[str]:
    """The literal reasons of every refusal (CompanionError and its subclasses) raised or built in the game's
    package, `companion/games/<game>/`."""
    package = ROOT / "companion" / "games" / game
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in python_files()}
    refusals = refusal_classes(trees.values())
    found: set[str] = set()
    for path, tree in trees.items():
        if Path(path).parent != package and package not in Path(path).parents:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args and _name(node.func) in refusals:
                found.update(_literals(node.args[0]))
    return found


# A seat named by its number or by a seat param, except in "there is no seat N" / "no player N" (a seat that does not
# exist can only be named by its number): players are named through {player}, which the clients show as the name.
SEAT_BY_NUMBER = re.compile(r"(?<!no )(?<!no player )\bseats? (\d|\{(player|players|active|seat)\})")


def unreviewed(game: str, reviewed: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(refusals raised but not in the reviewed table, reviewed refusals no longer raised), each sorted."""
    found = refusal_templates(game)
    return sorted(found - set(reviewed)), sorted(set(reviewed) - found)


def seats_by_number(templates: tuple[str, ...]) -> list[str]:
    """The templates that name a seat by number instead of by the player's name."""
    return [t for t in templates if SEAT_BY_NUMBER.search(t)]
