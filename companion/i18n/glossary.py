"""The per-language glossaries: the words players use for each game's things, and a check that translations use them.

A glossary (glossary/<lang>.json) lists, per game, the English term, a pattern that finds it in a message id, the
word the translations use, and the forms (stems, inflections) that count as using it. Its terms come from the
rules texts the players read; where a game has no rules text in that language the glossary says the terms were
chosen, and why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from companion.i18n import CATALOG_DIR, SOURCE_LANGUAGE
from companion.i18n.check import PLACEHOLDER, Problem, forms, load

GLOSSARY_DIR = Path(__file__).parent / "glossary"
GAMES = ("power_grid", "bohnanza", "shifting_stones")
_GAME_IN_PATH = re.compile(r"(?:games/|render/|inputs/|^game:|^play:|^display:)(power_grid|bohnanza|shifting_stones)\b")


@cache
def load_glossary(lang: str) -> dict[str, Any]:
    path = GLOSSARY_DIR / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"games": {}, "keep": []}


def kept_as_english(lang: str) -> set[str]:
    """Message ids that stay as written in `lang` (proper names: the games' titles, Elektro where players say so)."""
    return set(load_glossary(lang).get("keep", []))


def games_of(where: Iterable[str]) -> set[str]:
    """The games a message belongs to, from where it was found (a game's module, renderer, input or play)."""
    out = set()
    for place in where:
        match = _GAME_IN_PATH.search(place)
        if match:
            out.add(match.group(1))
    return out


def term_problems(lang: str, msgid: str, translation: Any, games: set[str]) -> list[str]:
    """The glossary terms a translation of a game's message should use but does not (empty when it is fine).

    A message shared by several games passes when it uses the terms of one of them (the same English word can
    name different things in two games: Power Grid's plant and Bohnanza's verb to plant).
    """
    glossary = load_glossary(lang).get("games", {})
    texts = [t for t in forms(translation) if isinstance(t, str)]
    # Placeholders are not words of the message ("{beans}" is filled in later, already translated).
    english = PLACEHOLDER.sub(" ", msgid)
    failures: list[list[str]] = []
    for game in sorted(games):
        lacking = []
        for term in glossary.get(game, {}).get("terms", []):
            pattern = term.get("pattern")
            if not pattern or not re.search(pattern, english, re.IGNORECASE):
                continue
            wanted = term.get("forms") or [term["word"]]
            if not any(any(f.lower() in text.lower() for f in wanted) for text in texts):
                lacking.append(f"{term['en']} → {term['word']}")
        if not lacking:
            return []
        failures.append(lacking)
    return failures[0] if failures else []


def glossary_problems(extraction: Any, langs: Iterable[str], folder: Path = CATALOG_DIR) -> list[Problem]:
    out: list[Problem] = []
    for lang in langs:
        if lang == SOURCE_LANGUAGE or not (GLOSSARY_DIR / f"{lang}.json").exists():
            continue
        messages = load(lang, folder).get("messages", {})
        for msgid, found in sorted(extraction.messages.items()):
            games = games_of(found.where)
            # A game's title is a name, written as the players know it; not a sentence made of terms.
            if not games or msgid not in messages or any(w.endswith(":title") for w in found.where):
                continue
            lacking = term_problems(lang, msgid, messages[msgid], games)
            if lacking:
                out.append(Problem(lang, "glossary", msgid, "should use " + "; ".join(lacking)))
    return out
