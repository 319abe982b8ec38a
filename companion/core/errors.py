"""Precise exceptions for everything a player, a phone or a controller can get wrong."""

from __future__ import annotations

from typing import Any, Self


class CompanionError(Exception):
    """Base of every refusal; `reason` is a sentence fit to show a player.

    A reason with variable parts is a template plus typed arguments, like a log message, so that phones and the
    display can show it in the player's language: `IllegalAction("plant {plant} needs a bid of at least {bid}",
    plant=13, bid=13)`. `reason` is always the English sentence; `template` and `params` are what translation uses.
    """

    code = "error"

    def __init__(self, reason: str, /, **params: Any) -> None:
        self.template = reason
        self.params = params
        self.reason = reason.format(**{k: _english(k, v) for k, v in params.items()}) if params else reason
        super().__init__(self.reason)

    def worded(self, english: str) -> Self:
        """The same refusal with `reason` worded otherwise in English (seats counted from 1, "seat 2" for seat
        number 1, where the template's `{player}` is the seat number each client turns into the player's name);
        returns itself."""
        self.reason = english
        self.args = (english,)
        return self

    def english(self, **shown: str) -> Self:
        """The English `reason` with some params in people's words (a card id "chili-03" as "Chili Bean 3 of 18");
        `params` keep the ids, which each client words in its own language; returns itself."""
        return self.worded(self.template.format(**{k: _english(k, v) for k, v in self.params.items()} | shown))

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "error": self.reason, "template": self.template, "params": dict(self.params)}


# Params that hold a seat number (0-based, as on the wire): clients show the player's name; the English sentence
# counts seats from 1 as people do, so seat 0 reads "seat 1".
SEAT_PARAMS = frozenset({"player", "active"})


def _english(name: str, value: Any) -> Any:
    if name in SEAT_PARAMS and isinstance(value, int) and not isinstance(value, bool):
        return f"seat {value + 1}"
    if isinstance(value, (tuple, list)):
        return ", ".join(str(v) for v in value)
    return value


class MalformedAction(CompanionError):
    """The input is not an action at all: bad JSON, unknown kind, missing or mistyped field."""

    code = "malformed"


class IllegalAction(CompanionError):
    """A well-formed action the rules do not allow now (`plant 13 needs a bid of at least 13`)."""

    code = "illegal"


class NotYourTurn(IllegalAction):
    """The seat may not act at this moment."""

    code = "not_your_turn"


class StaleState(CompanionError):
    """The client acted on a state that has since changed."""

    code = "stale"


class NotAllowed(CompanionError):
    """The caller lacks the right (wrong token, a seat undoing someone else's move, ...)."""

    code = "not_allowed"


class UnknownGame(CompanionError):
    code = "unknown_game"


class BadConfig(CompanionError):
    """Options, player count or mode that the game cannot be set up with."""

    code = "bad_config"
