"""Player names: what a name may be (everywhere: API, lobby, command line) and how it is shown safely."""

from __future__ import annotations

import unicodedata

from companion.core.errors import BadConfig

# Long enough for any real name, short enough for a seat's label on the display.
MAX_NAME = 40
# Unicode's first-strong isolate and its closing pop: text inside reads in its own direction and cannot turn
# the words around it (a name with a right-to-left override reverses nothing after it).
FSI = "\u2068"
PDI = "\u2069"


def bad_character(text: str) -> str | None:
    """Why `text` may not be stored or shown: a lone surrogate (not text at all) or a control character."""
    if text.isascii():
        return None if text.isprintable() else "a control character"
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return "a lone surrogate (not a character)"
        if category == "Cc":
            return "a control character"
    return None


def name_problem(name: object) -> str | None:
    """Why `name` cannot be a player's name (1–40 characters, no control characters, not only spaces), or None."""
    if not isinstance(name, str) or not name.strip():
        return "a name needs at least one letter"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters long"
    problem = bad_character(name)
    return f"a name may not contain {problem}" if problem else None


def check_names(names: list[str]) -> None:
    """Refuse (BadConfig) the first name that cannot be used."""
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise BadConfig(problem)


def isolated(name: str) -> str:
    """A name as it goes into running text: isolated, so its direction stays its own."""
    return f"{FSI}{name}{PDI}"


def printable(text: str) -> str:
    """Text safe for a terminal: control characters (escape sequences) and lone surrogates become U+FFFD."""
    if text.isascii() and text.isprintable():
        return text
    return "".join("\ufffd" if unicodedata.category(c) in ("Cc", "Cs") else c for c in text)
