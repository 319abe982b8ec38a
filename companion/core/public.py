"""The public projection: what the whole table may learn of an attempted action and of a refusal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from companion.core.errors import CompanionError
from companion.core.log import LogMessage
from companion.core.seats import HOST, TABLE
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.core.game import Game

# What the public stream says of a refusal whose reason the table may not hear.
REFUSED = N_("a move was refused")

# Refusals every game may say aloud: they name nothing but the state of the session itself.
CORE_PUBLIC_REFUSALS = frozenset({
    REFUSED,
    "the game is over",
    "the game is over: the host can start a new one",
    "this game has ended",
    "the game has moved on (you saw state {seen}, it is now {now})",
    "there is nothing to undo",
    "there is no seat {number} at this table of {players}",
    "the last action was the host's: hold UNDO to undo it as the host",
    "{game} takes its moves on the phones; the controller only reads cards",
    "that tag is {card} of {other}, not a {game} card",
    "tag {uid} is not enrolled: enroll this tag first (companion tags enroll {name})",
})


def refusal_is_public(game: Game[Any] | None, exc: CompanionError) -> bool:
    """True when the whole table may hear `exc`'s reason; the game lists its own such reasons."""
    if exc.template in CORE_PUBLIC_REFUSALS:
        return True
    return game is not None and exc.template in game.public_refusals


def public_seat(raw: Any, players: int) -> int | str | None:
    """A seat as the public stream may name it: a real seat, the table or the host; anything else is None."""
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < players:
        return raw
    if raw in (TABLE, HOST):
        return raw
    return None


def public_attempt(game: Game[Any] | None, action: Mapping[str, Any] | None, players: int) -> dict[str, Any] | None:
    """Who tried which kind of action, and nothing else: a kind the game does not know is left out (it is the
    sender's own words)."""
    if not isinstance(action, Mapping):
        return None
    out: dict[str, Any] = {"seat": public_seat(action.get("seat"), players)}
    kind = action.get("action")
    if isinstance(kind, str) and (kind == "undo" or (game is not None and kind in game.actions.kinds)):
        out["action"] = kind
    return out


def public_log_text(log: Iterable[LogMessage]) -> str:
    return "; ".join(m.render() for m in log if m.visible_to is None)
