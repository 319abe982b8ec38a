"""Time limits the server keeps for rules that have them (engines never read the clock), read off the public view."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Deadline:
    """When `seconds` pass while `key` still holds, the host sends `action`; `what` names it for the phones."""

    key: Hashable
    seconds: float
    action: dict[str, Any]
    what: str


def bohnanza_trading(view: dict[str, Any]) -> Deadline | None:
    """Option trade_seconds: trading ends by itself that long after the cards were turned up."""
    seconds = view.get("trade_seconds") or 0
    if seconds <= 0 or view.get("phase") != "trade" or view.get("over"):
        return None
    return Deadline(("trade", view.get("turn")), float(seconds), {"seat": "host", "action": "end_trading"}, "trading")


CLOCKS: dict[str, Callable[[dict[str, Any]], Deadline | None]] = {"bohnanza": bohnanza_trading}
