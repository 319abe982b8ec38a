"""Finds every message id the project shows: literals in the code, the games' own words, and what running games say.

Three sources, so a new string is found without anyone listing it:
- the code: Python `_()`, `N_()`, `gettext()`, `ngettext()`, log templates (`msg()`, `LogMessage()`), the
  games' table instructions (`todo()`), the controller's notes (`Note()`, `note()`), refusals raised with a literal
  reason or template (`IllegalAction("the game is over")`, `NotYourTurn("it is {player}'s turn", player=2)`:
  CompanionError and every subclass of it defined anywhere in the code), the pages' JS `t()`/`tn()` calls and
  `{{t:...}}` in their HTML;
- the games' declared words: titles, option and chance-event help, action kinds, fields and descriptions;
- play: a few random games of each built-in game, collecting the log and instruction templates, the words of
  their arguments, the machine names the pages turn into words, and every text the table display looks up while
  drawing those states.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.i18n import words

ROOT = Path(__file__).resolve().parent.parent.parent
PYTHON_PACKAGES = ("companion", "display")
STATIC = ROOT / "companion" / "web" / "static"

# Python callables whose first argument is a message id.
TRANSLATED_CALLS = frozenset({"_", "N_", "gettext", "tr"})
PLURAL_CALLS = frozenset({"ngettext", "tr_n"})
TEMPLATE_CALLS = frozenset({"msg", "LogMessage", "todo", "Instruction", "Note", "note", "now"})
# The refusals of companion.core.errors; their subclasses elsewhere (RateLimited, a game's own) are found by
# `refusal_classes`.
REFUSALS = frozenset({"CompanionError", "IllegalAction", "NotYourTurn", "MalformedAction", "StaleState", "NotAllowed",
                      "UnknownGame", "BadConfig"})
JS_CALL = re.compile(r"""(?<![\w.$])(t|tn)\(\s*(["'])((?:\\.|(?!\2).)*)\2""")
HTML_TEXT = re.compile(r"\{\{t:([^{}]+)\}\}")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A machine name the pages may show as words ("black_eyed", "buy_resources"); card ids carry digits.
MACHINE_NAME = re.compile(r"^[a-z][a-z_]*[a-z]$")

# Arguments, fields and view keys whose values are proper names (the board's cities and regions): they are
# shown as printed on the board in every language, never looked up.
NAME_PLACES = frozenset({"city", "cities", "network", "regions", "proposed_regions", "region", "names", "name"})
# View keys whose values are not shown as words (ids the clients map themselves).
NOT_WORDS = frozenset({"game", "card", "cards", "action", "actions", "current_seats", "seat"})
# Arguments that are seats: the pages and the display show the player's name.
SEAT_ARGS = frozenset({
    "player", "seat", "who", "winner", "target", "opener", "buyer", "bidder", "giver", "receiver", "partner",
    "active", "from_player", "to_player", "offerer", "other", "owner", "loser", "leader", "order", "winners",
    "players", "seats",
})


@dataclasses.dataclass
class Found:
    """One message id: whether it has plural forms, and where it was found (for the report)."""

    plural: bool = False
    where: set[str] = dataclasses.field(default_factory=set)


class Messages(dict[str, Found]):
    def add(self, msgid: str, where: str, plural: bool = False) -> None:
        if not msgid or not msgid.strip():
            return
        found = self.setdefault(msgid, Found())
        found.plural = found.plural or plural
        if len(found.where) < 6:
            found.where.add(where)

    def merge(self, other: Messages) -> None:
        for msgid, found in other.items():
            for where in sorted(found.where) or ["?"]:
                self.add(msgid, where, found.plural)


@dataclasses.dataclass
class Extraction:
    """Everything found: the message ids, the proper names seen (kept as printed), and notes for the report."""

    messages: Messages
    names: set[str]
    unmarked: list[str]  # refusals built with f-strings: shown in English until they become templates

    @property
    def ids(self) -> set[str]:
        return set(self.messages)


# -- the code ----------------------------------------------------------------------------------------------

def python_files(root: Path = ROOT) -> Iterator[Path]:
    for package in PYTHON_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _literals(node: ast.expr) -> list[str]:
    """The string constants an argument can be: a literal, or either side of `a if c else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def refusal_classes(trees: Iterable[ast.Module], known: frozenset[str] = REFUSALS) -> frozenset[str]:
    """`known` and the names of every class defined in `trees` that derives from one of them (at any depth)."""
    bases: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(n for n in map(_name, node.bases) if n)
    found = set(known)
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in found and parents & found:
                found.add(name)
                grew = True
    return frozenset(found)


def scan_python(paths: Iterable[Path], root: Path = ROOT) -> tuple[Messages, list[str]]:
    found = Messages()
    unmarked: list[str] = []
    parsed = [(path, ast.parse(path.read_text(encoding="utf-8"), str(path))) for path in paths]
    refusals = refusal_classes(tree for _, tree in parsed)
    for path, tree in parsed:
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _name(node.func)
            where = f"{rel}:{node.lineno}"
            first = node.args[0]
            if name in TRANSLATED_CALLS or name in PLURAL_CALLS:
                for text in _literals(first):
                    found.add(text, where, plural=name in PLURAL_CALLS)
            elif name in TEMPLATE_CALLS:
                for text in _literals(first):
                    found.add(text, where, plural="count" in PLACEHOLDER.findall(text))
            elif name in refusals:
                texts = _literals(first)
                for text in texts:
                    found.add(text, where, plural="count" in PLACEHOLDER.findall(text))
                if not texts and isinstance(first, ast.JoinedStr):
                    unmarked.append(where)
    return found, unmarked


def _js_string(body: str, quote: str) -> str:
    if quote == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    return json.loads(f'"{body}"')


def scan_web(static: Path = STATIC, root: Path = ROOT) -> Messages:
    found = Messages()
    for path in sorted(static.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for match in JS_CALL.finditer(text):
            kind, quote, body = match.groups()
            msgid = _js_string(body, quote)
            line = text.count("\n", 0, match.start()) + 1
            found.add(msgid, f"{path.relative_to(root).as_posix()}:{line}", plural=kind == "tn")
    for path in sorted(static.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for match in HTML_TEXT.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.add(match.group(1), f"{path.relative_to(root).as_posix()}:{line}")
    return found


# -- the games' declared words ---------------------------------------------------------------------------------

def builtin_games() -> dict[str, Any]:
    """The built-in games (a test's own game registered beside them is left out)."""
    from companion.core.registry import BUILTIN, all_games

    return {name: game for name, game in all_games().items() if name in BUILTIN}


def game_words(games: dict[str, Any]) -> Messages:
    found = Messages()
    for name, game in games.items():
        where = f"game:{name}"
        found.add(game.title, f"{where}:title")
        for option in game.options:
            found.add(option.help, f"{where}:option:{option.name}")
            found.add(words(option.name), f"{where}:option:{option.name}")
            for choice in option.choices or ():
                if isinstance(choice, str) and MACHINE_NAME.match(choice):
                    found.add(words(choice), f"{where}:option:{option.name}")
        for event in game.chance_events:
            found.add(event.help, f"{where}:chance:{event.name}")
        for kind, schema in game.actions.schemas().items():
            found.add(words(kind), f"{where}:action:{kind}")
            # The display's action menu names a kind with its words too; one id serves both.
            if schema.get("description"):
                found.add(schema["description"], f"{where}:action:{kind}:description")
            for field, spec in schema.get("properties", {}).items():
                if field in ("seat", "action"):
                    continue
                found.add(words(field), f"{where}:action:{kind}:field")
                found.add(field.replace("_", " "), f"{where}:action:{kind}:field")
                for value in spec.get("enum", ()):
                    if isinstance(value, str) and MACHINE_NAME.match(value) and field not in NAME_PLACES:
                        found.add(words(value), f"{where}:action:{kind}:{field}")
    return found


# -- play ----------------------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class PlayPlan:
    """Which random games to play: small, so the check stays quick, yet through every phase of each game."""

    seeds: tuple[int, ...] = (1, 2, 3)
    modes: tuple[str, ...] = ("digital", "physical")
    steps: int = 3000
    display_every: int = 50  # draw the table display every this many steps (and at the end)
    middle: bool = True  # also a middle player count (3), besides the fewest and the most

    def players(self, game: Any) -> list[int]:
        counts = {game.min_players, game.max_players}
        if self.middle:
            counts.add(min(game.max_players, max(game.min_players, 3)))
        return sorted(counts)


# What the tests play: one seed of each game at its fewest and most players, in both modes.
QUICK = PlayPlan(seeds=(1,), steps=600, display_every=100, middle=False)


def _walk_log(found: Messages, names: set[str], template: str, args: dict[str, Any], where: str) -> None:
    found.add(template, where, plural="count" in PLACEHOLDER.findall(template))
    for key, value in args.items():
        if not isinstance(value, str) or key in SEAT_ARGS:
            continue
        if key in NAME_PLACES:
            names.add(value)
            names.update(v.strip() for v in value.split(","))
        elif MACHINE_NAME.match(value.replace(" ", "_")):
            # The pages and the display look a string argument up as it is ("coal", "top left").
            found.add(value, f"{where}:arg:{key}")
        else:
            names.add(value)  # an id or a name ("SS12", "green, brown, red"): shown as it is


def _walk_view(found: Messages, names: set[str], view: Any, where: str, key: str = "") -> None:
    if isinstance(view, dict):
        if isinstance(view.get("template"), str) and isinstance(view.get("args"), dict):
            _walk_log(found, names, view["template"], view["args"], f"{where}:instruction")
            return
        for k, v in view.items():
            if k in NAME_PLACES:
                _collect_names(names, v)
                continue
            if k in NOT_WORDS:
                continue
            _walk_view(found, names, v, where, k)
    elif isinstance(view, str) and MACHINE_NAME.match(view):
        # The pages show a machine name from a view as words ("black_eyed" -> "Black eyed", a phase, a face).
        found.add(words(view), f"{where}:{key}")
    elif isinstance(view, list):
        for v in view:
            _walk_view(found, names, v, where, key)


def _collect_names(names: set[str], value: Any) -> None:
    if isinstance(value, str):
        names.add(value)
        names.add(words(value))
    elif isinstance(value, dict):
        for k in value:
            _collect_names(names, k)
    elif isinstance(value, list):
        for v in value:
            _collect_names(names, v)


def _walk_action(found: Messages, names: set[str], action: dict[str, Any], where: str) -> None:
    for field, value in action.items():
        if field in ("seat", "action") or not isinstance(value, str):
            continue
        if field in NAME_PLACES:
            _collect_names(names, value)
        elif MACHINE_NAME.match(value):
            found.add(words(value), f"{where}:{field}")


def play_words(games: dict[str, Any], plan: PlayPlan = PlayPlan(), display: bool = True) -> tuple[Messages, set[str]]:
    """Random legal games of each built-in game: what their logs, views and legal actions make the clients show."""
    from companion.testing.harness import choose_actor

    found = Messages()
    names: set[str] = set()
    recorder = _DisplayRecorder() if display else None
    for name, game in games.items():
        for players in plan.players(game):
            for mode in plan.modes:
                for seed in plan.seeds:
                    where = f"play:{name}:{players}p:{mode}"
                    config = game.make_config(players, mode, {}, {})
                    state = game.setup(config, random.Random(seed))
                    rng = random.Random(f"i18n:{seed}")
                    log: list[Any] = []
                    for step in range(plan.steps + 1):
                        current = game.current_seats(state)
                        # The public table, and the private view of whoever acts now (their phone is the busy one).
                        for seat in (None, *(s for s in current if isinstance(s, int))):
                            _walk_view(found, names, game.view(state, seat), where)
                        for seat in current:
                            for action in game.legal_actions(state, seat):
                                found.add(words(action.kind), f"{where}:kind")
                                _walk_action(found, names, action.to_json(), f"{where}:action")
                        over = game.is_over(state)
                        if recorder is not None and (over or step % plan.display_every == 0):
                            recorder.draw(game, config, state, log, step)
                        pick = None if over else choose_actor(game, state, rng)
                        if pick is None:
                            break
                        state, messages = game.apply(state, rng.choice(pick[1]))
                        for m in messages:
                            _walk_log(found, names, m.template, dict(m.args), f"{where}:log")
                        log.extend(messages)
                        del log[:-40]
    if recorder is not None:
        found.merge(recorder.found)
    return found, names


class _DisplayRecorder:
    """Draws states on the headless table display and notes every text it looks up."""

    def __init__(self) -> None:
        self.found = Messages()

    def draw(self, game: Any, config: Any, state: Any, log: list[Any], step: int) -> None:
        import os

        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        from display import i18n as display_i18n
        from display.app import render_image
        from display.model import DisplayModel
        from display.offline import envelope

        model = DisplayModel(clock=lambda: 0.0)
        model.set_envelope(envelope(game, config, state, log, step))
        model.dismiss_lobby()
        model.set_connection("live")
        seen: set[str] = set()
        with display_i18n.recording(seen):
            render_image(model, (1280, 720))
        for msgid in seen:
            self.found.add(msgid, f"display:{game.name}")


# -- all of it -------------------------------------------------------------------------------------------------

def extract(*, play: bool = True, display: bool = True, plan: PlayPlan = PlayPlan()) -> Extraction:
    """Every message id of the project (see the module's docstring for the sources)."""
    messages, unmarked = scan_python(python_files())
    messages.merge(scan_web())
    games = builtin_games()
    messages.merge(game_words(games))
    names: set[str] = set()
    if play:
        played, names = play_words(games, plan, display=display)
        messages.merge(played)
    return Extraction(messages, names - set(messages), unmarked)
