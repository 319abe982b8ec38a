"""A session's history in words (with undo to here) and its end-of-game summary, both rebuilt from the action log."""

from __future__ import annotations

import random
from typing import Any

from companion.core.actions import Action
from companion.core.errors import NotAllowed
from companion.core.log import LogMessage
from companion.core.seats import HOST
from companion.core.table import JobDone
from companion.store.session import Session

SERIES_TITLES = {"money": "Money by round", "cities": "Cities by round", "powered": "Cities powered by round",
                 "coins": "Coins by round", "points": "Points by round"}


def _replay(session: Session) -> list[tuple[int, Action, list[LogMessage]]]:
    """Every live entry with what it caused, replayed from the setup (the log is the truth, never a screen)."""
    game = session.game
    state = game.setup(session.config, random.Random(session.seed))
    out = []
    for seq, action in session.live_entries():
        if isinstance(action, JobDone):
            out.append((seq, action, []))
            continue
        state, messages = game.apply(state, action)
        out.append((seq, action, messages))
    return out


def entries(session: Session) -> list[dict[str, Any]]:
    """Every live action in words, oldest first: `{seq, seat, action, template, params, text, time}`.

    The words are the public log lines the action caused (a private line is replaced by who did which kind of
    action), so the history can be shown on the host page at the table.
    """
    names = session.names()
    times = {row.seq: row.time for row in session.store.log(session.id)}
    jobs = {job.id: job for job in session.jobs()}
    out = []
    for seq, action, messages in _replay(session):
        public = [m for m in messages if m.visible_to is None]
        if isinstance(action, JobDone):
            job = jobs.get(action.job)
            job_text = session.worded(job.message, names)["text"] if job else action.job
            message = LogMessage("{player} ticked off a board job: {job}", {"player": action.seat, "job": job_text})
        elif public:
            message = public[0]
        else:
            message = LogMessage("{player} made a move: {action}", {"player": action.seat,
                                                                      "action": action.kind.replace("_", " ")})
        worded = session.worded(message, names)
        out.append({"seq": seq, "seat": action.seat, "action": session.game.public_action(action, messages)
                    if not isinstance(action, JobDone) else action.to_json(),
                    "template": message.template, "params": worded["params"], "text": worded["text"],
                    "more": [session.worded(m, names) for m in public[1:]], "time": times.get(seq)})
    return out


def undo_preview(session: Session, seq: int) -> list[dict[str, Any]]:
    """What undo to here would take back: the entry `seq` and everything after it, newest first."""
    found = entries(session)
    if all(e["seq"] != seq for e in found):
        raise NotAllowed("action {number} is not in this game's history", number=seq)
    return [e for e in reversed(found) if e["seq"] >= seq]


def undo_to(session: Session, seq: int, state_id: int | None = None) -> int:
    """Undo entry `seq` and everything after it, as the host, one logged undo each; returns how many."""
    with session._lock:
        count = len(undo_preview(session, seq))
        for n in range(count):
            session.undo(HOST, state_id if n == 0 else None)
    return count


def summary(session: Session) -> dict[str, Any]:
    """Final scores in rank order with the tie-break in words, and per-round series, all from the log."""
    game = session.game
    seats = session.store.seats(session.id)
    names = [s.name for s in seats]
    state = game.setup(session.config, random.Random(session.seed))
    points: dict[int, dict[str, list[int]]] = {}
    last_round = game.round_of(state)
    for action in session.live_actions():
        before_round = game.round_of(state)
        state, _ = game.apply(state, action)
        if game.round_of(state) != before_round:
            # The first state of a new round shows how the last one ended (Power Grid's income, powered cities).
            points[before_round] = game.series(state)
        last_round = game.round_of(state)
    points[last_round] = game.series(state)
    rounds = sorted(points)
    series: dict[str, Any] = {}
    for key in points[rounds[-1]]:
        values = [[points[r][key][s] for r in rounds if key in points[r]] for s in range(len(names))]
        series[key] = {"title": SERIES_TITLES.get(key, key), "values": values}
    scores = game.scores(state)
    totals = list(scores.get("scores", []))
    winners = set(scores.get("winners", []))
    tie = game.tie_break(state) if game.is_over(state) else None
    tie_json = session.worded(tie, names) if tie is not None else None
    order = sorted(range(len(totals)), key=lambda s: (s not in winners, -totals[s], s))
    ranking = []
    for place, seat in enumerate(order):
        rank = 1 + sum(1 for other in order[:place] if totals[other] > totals[seat] or
                       (other in winners and seat not in winners))
        ranking.append({"seat": seat, "name": names[seat], "colour": seats[seat].colour, "score": totals[seat],
                        "rank": rank, "winner": seat in winners,
                        "tie_break": tie_json if seat in winners and tie_json else None})
    return {
        "session": session.id, "game": game.name, "title": game.title, "over": game.is_over(state),
        "players": [{"seat": s.seat, "name": s.name, "colour": s.colour} for s in seats],
        "ranking": ranking, "winners": sorted(winners), "tie_break": tie_json,
        "rounds": [r + (1 if rounds[0] == 0 else 0) for r in rounds], "series": series, "scores": scores,
        "created": session.store.session(session.id).created,
    }


def rematch(session: Session) -> Session:
    """A new session of the same game with the same players (names, colours) and options, a fresh shuffle."""
    seats = session.store.seats(session.id)
    config = session.config
    return Session.create(session.store, session.game.name, config.players, mode=config.mode,
                          options=dict(config.options), chance=dict(config.chance),
                          names=[s.name for s in seats], colours=[s.colour for s in seats])


def finished(store: Any) -> list[dict[str, Any]]:
    """Every finished game, newest first: date, game, players, scores and winners (from each log)."""
    out = []
    for row in reversed(store.sessions()):
        if row.status not in ("over",) and not (row.status == "ended" and _over(store, row.id)):
            continue
        session = Session(store, row.id)
        if not session.game.is_over(session.state):
            continue
        scores = session.game.scores(session.state)
        names = session.names()
        out.append({"id": row.id, "game": row.game, "title": session.game.title, "date": row.updated,
                    "players": names, "scores": list(scores.get("scores", [])),
                    "winners": [names[s] for s in scores.get("winners", [])]})
    return out


def _over(store: Any, sid: int) -> bool:
    try:
        session = Session(store, sid)
    except Exception:  # a game no longer installed: not listed
        return False
    return session.game.is_over(session.state)
