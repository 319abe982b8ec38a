"""Checks at the edge of the server: every JSON value a client sends is plain, shallow, finite text and numbers."""

from __future__ import annotations

import json
import math
from typing import Any

from companion.core.errors import MalformedAction
from companion.core.names import bad_character

# Deeper than any action or request of this API (an action is an object holding lists of numbers or words).
MAX_DEPTH = 8
# JavaScript reads numbers as doubles: a whole number beyond this could not round-trip through a phone.
MAX_INT = 2**53 - 1
# The largest id of anything stored (sessions, seats): SQLite's own integers stop at 2**63 - 1.
MAX_ID = 2**53 - 1


class TooDeep(MalformedAction):
    """Nested deeper than this API ever needs."""


def loads(text: str | bytes) -> Any:
    """JSON text from a client, checked: refused (MalformedAction) unless it is UTF-8, valid and plain."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise MalformedAction("the request is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise TooDeep("the request is nested too deeply (at most {limit} levels)", limit=MAX_DEPTH) from None
    except ValueError:  # not JSON, or a number with thousands of digits
        raise MalformedAction("the request is not valid JSON") from None
    check(data)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def check(value: Any, depth: int = 0) -> None:
    """Refuse nesting beyond MAX_DEPTH, whole numbers beyond ±MAX_INT, non-finite numbers and bad text."""
    if depth > MAX_DEPTH:
        raise TooDeep("the request is nested too deeply (at most {limit} levels)", limit=MAX_DEPTH)
    if isinstance(value, str):
        check_text(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise MalformedAction("a number in the request is too large (at most {limit})", limit=MAX_INT)
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) > MAX_INT:
            raise MalformedAction("a number in the request is too large (at most {limit})", limit=MAX_INT)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key)
            check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            check(item, depth + 1)


def check_text(text: str) -> None:
    problem = bad_character(text)
    if problem is not None:
        raise MalformedAction("text in the request contains {problem}", problem=problem)


def parse_id(raw: str) -> int:
    """A session id from a path; -1 (which names no session) for anything but a plain whole number."""
    if raw.isascii() and raw.isdigit() and len(raw) <= 16:
        return int(raw)
    return -1


def is_plain_token(token: str) -> bool:
    """Tokens are printable ASCII (URL-safe base64 for the ones the server makes)."""
    return token.isascii() and token.isprintable() and 0 < len(token) <= 200
