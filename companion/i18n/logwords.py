"""Log arguments in words, per game, for the display, the CLI and the stored texts (as each game's phone renderer
words them): beans and stones by their names, pattern cards by their points and faces; never a machine name or a
card id. The caller passes its own gettext (the display's, or a catalog's)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from companion import pictograms

Gettext = Callable[..., str]

_COPY = re.compile(r"-\d+$")  # "chili-07": the seventh chili card


def _bean(_: Gettext, value: Any, short: bool = False) -> str | None:
    bean = _COPY.sub("", value) if isinstance(value, str) else None
    if bean not in pictograms.LABELS["bean"]:
        return None
    return _(pictograms.short_label("bean", bean) if short else pictograms.label("bean", bean))


def bohnanza(_: Gettext, key: str, value: Any) -> str | None:
    # A lone {bean} stands before the word "bean" in its templates ("planted a {bean} bean"): the short name.
    if key == "bean" and isinstance(value, str):
        return _bean(_, value, short=True)
    if key in ("beans", "give", "want", "kept", "card"):
        if isinstance(value, str):
            return _bean(_, value)
        if isinstance(value, list | tuple):
            names = [_bean(_, v) for v in value]
            if all(names):
                return ", ".join(n for n in names if n) if names else _("nothing")
    return None


def _pattern(_: Gettext, card: Any) -> str | None:
    from companion.games.shifting_stones.patterns import PATTERNS

    pattern = PATTERNS.get(card) if isinstance(card, str) else None
    if pattern is None:
        return None
    faces = [_(pictograms.label("stone", face)) for row in pattern.rows for face in row if face]
    return _("{count}-point card ({faces})", count=pattern.points, faces=", ".join(faces))


def shifting_stones(_: Gettext, key: str, value: Any) -> str | None:
    if key == "card":
        return _pattern(_, value)
    if key == "cards" and isinstance(value, list | tuple):
        names = [_pattern(_, v) for v in value]
        return "; ".join(n for n in names if n) if all(names) else None
    if key in ("before", "after", "first_face", "second_face", "face") and value in pictograms.LABELS["stone"]:
        return _(pictograms.label("stone", value))
    return None


ARG_WORDS: dict[str, Callable[[Gettext, str, Any], str | None]] = {
    "bohnanza": bohnanza, "shifting_stones": shifting_stones,
}


def arg_words(game: str, key: str, value: Any, gettext: Gettext) -> str | None:
    """The game's own words for a log argument in `gettext`'s language, or None where the general rules apply."""
    words = ARG_WORDS.get(game)
    return words(gettext, key, value) if words else None
