"""What the table is told: board jobs (a checklist for the real board) and the one sentence naming who acts now."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

from companion.core.actions import Action, ActionSet
from companion.core.log import LogArg, LogMessage
from companion.core.seats import HOST, TABLE, Seat


@dataclasses.dataclass(frozen=True)
class JobDone(Action):
    """Tick a board job off the checklist: the table did it on the real board. Changes no game state.

    Any seat, the table or the host may tick any job (whoever moved the cubes); it is logged like every action,
    so it survives a restart, and an undo brings the job back.
    """

    job: str

    kind: ClassVar[str] = "job_done"
    summary: ClassVar[str] = "mark a board job done"


# The actions a session handles itself, before the game's rules see anything.
SESSION_ACTIONS = ActionSet((JobDone,))


def is_session_action(data: Any) -> bool:
    """True when a decoded action (dict) or Action is one the session handles itself (`job_done`)."""
    if isinstance(data, Action):
        return isinstance(data, JobDone)
    return isinstance(data, dict) and data.get("action") in SESSION_ACTIONS.kinds


@dataclasses.dataclass(frozen=True)
class Now:
    """What happens now, in one sentence for the table (template + args, seats as `{player}` params), and the seats
    that must act. Seats that merely may act (Bohnanza's harvests and trades) are not in `acting`."""

    message: LogMessage
    acting: tuple[Seat, ...]
    may: tuple[Seat, ...] = ()  # seats that may act but need not (harvest, trade)


def now(template: str, acting: Sequence[Seat], **args: LogArg) -> Now:
    """Shorthand: `now("{player}: bid on plant {plant} or pass", (2,), player=2, plant=13)`."""
    return Now(LogMessage(template, dict(args)), tuple(acting))


def generic_now(current: Sequence[Seat], over: bool) -> Now:
    """A sentence for any game from whose turn it is; games give a better one per phase."""
    if over:
        return now("The game is over: see the scores", ())
    players = tuple(s for s in current if isinstance(s, int))
    if TABLE in current:
        return now("Table: reveal what the game asks for (tap the card or enter it on the keys)", current)
    if HOST in current:
        return now("Host: make the choice the game asks for on the host page", current)
    if len(players) == 1:
        return now("{player}: your move", players, player=players[0])
    if players:
        return now("{players}: your move", players, players=players)
    return now("Waiting for the next step", ())
