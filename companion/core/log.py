"""Log messages: a past-tense template plus typed arguments plus who may see them."""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.core.seats import Seat

LogArg = str | int | float | bool | None | tuple[Any, ...]


@dataclasses.dataclass(frozen=True)
class LogMessage:
    """One fact for the ticker: `LogMessage("{player} bought plant {plant} for {price}", {...})`.

    The English template is also the message id for translation. `visible_to` is None for
    everyone, or the seats (player numbers) allowed to read it, e.g. the card a player drew.
    """

    template: str
    args: dict[str, LogArg] = dataclasses.field(default_factory=dict)
    visible_to: tuple[Seat, ...] | None = None

    def visible(self, seat: Seat | None) -> bool:
        if self.visible_to is None:
            return True
        return seat is not None and seat in self.visible_to

    def render(self) -> str:
        return self.template.format(**{k: _plain(v) for k, v in self.args.items()})

    def to_json(self) -> dict[str, Any]:
        return {"template": self.template, "args": dict(self.args), "text": self.render()}


def _plain(value: LogArg) -> Any:
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return value


def msg(template: str, visible_to: tuple[Seat, ...] | None = None, **args: LogArg) -> LogMessage:
    """Shorthand: `msg("{player} passed", player=2)`."""
    return LogMessage(template, args, visible_to)
