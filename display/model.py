"""What the display knows, in plain Python (never pygame): the latest public envelope, feedback, ticker, join codes."""

from __future__ import annotations

import dataclasses
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import orjson

# The log arguments that name seats, or list them: the same lists the pages read.
from companion.i18n import SEAT_ARGS, SEAT_LIST_ARGS, shown_template
from companion.i18n.logwords import arg_words
from display.i18n import N_, _, language, western_digits

# How long a feedback toast stays up; a refusal stays longer so its reason can be read.
ACCEPTED_SECONDS = 3.0
REFUSED_SECONDS = 7.0
FEEDBACK_KEPT = 4
TICKER_KEPT = 30
# Log lines kept in words (a few games' worth of ticker, board instructions and feedback sentences).
LINES_KEPT = 1024

# Bidirectional formatting characters: the display lays out each line's runs itself, so a name keeps its own
# direction without them, and an override (U+202E) in a name must not turn the rest of a line around.
_BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def shown_name(name: Any) -> str:
    """A player's name as the display draws it: without bidi controls or control characters."""
    text = str(name or "").translate(_BIDI_CONTROLS)
    return "".join(c for c in text if c.isprintable() or c == " ")


# Machine names of the sources of feedback, for the toast line.
SOURCE_NAMES = {"phone": N_("phone"), "board": N_("controller"), "host": N_("host"), "display": N_("display")}


@dataclasses.dataclass(frozen=True)
class Feedback:
    """One answer to a tap or press: accepted, or refused with the reason.

    `template` and `params` are the reason's message id and arguments (seats, words, numbers), shown in the
    display's language like a log line; without them the English text is looked up as it is. `lines` are the
    log lines of an accepted move (each a template and params): they name the player themselves.
    """

    ok: bool
    text: str
    seat: int | str | None
    source: str
    at: float
    action: dict[str, Any] | None = None
    template: str = ""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    lines: tuple[dict[str, Any], ...] = ()

    @property
    def expires(self) -> float:
        return self.at + (ACCEPTED_SECONDS if self.ok else REFUSED_SECONDS)


@dataclasses.dataclass
class Choices:
    """A seat's legal actions offered on screen; `index` is the highlighted one."""

    seat: Any
    items: list[tuple[str, dict[str, Any]]]
    state_id: int | None = None
    index: int = 0

    @property
    def selected(self) -> dict[str, Any] | None:
        return self.items[self.index][1] if self.items else None


def action_label(action: dict[str, Any]) -> str:
    """An action's JSON as a short line: 'Bid: plant 13, amount 15'."""
    kind = str(action.get("action") or "?")
    fields = [f"{_(k.replace('_', ' '))} {_field(v)}" for k, v in action.items() if k not in ("seat", "action")]
    name = _(kind.replace("_", " ").capitalize())
    return f"{name}: {', '.join(fields)}" if fields else name


def _word(value: str) -> str:
    """A word of the game ("coal", "top left") translated; names and ids ("Berlin", "SS12") stay as they are."""
    return _(value) if _GAME_WORD.match(value) else value


_GAME_WORD = re.compile(r"^[a-z][a-z_ ]*$")


def _field(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_field(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_field(v)}" for k, v in value.items()) + "}"
    return str(value)


@dataclasses.dataclass(frozen=True)
class JoinCode:
    seat: int
    name: str
    url: str


class DisplayModel:
    """Holds what the server said; `apply_message` returns the names of the parts that changed."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.envelope: dict[str, Any] | None = None
        self.feedback: deque[Feedback] = deque(maxlen=FEEDBACK_KEPT)
        self.join_codes: list[JoinCode] = []
        self.host_url: str | None = None
        self.connection = "connecting"
        self.lobby_dismissed = False
        # Per-round figures seen so far (for the end-of-game charts): series name -> round -> per-seat values.
        self.history: dict[str, dict[int, list[float]]] = {}
        self.choices: Choices | None = None
        self._last_round: int | None = None
        # The checklist's page (when the jobs do not fit at once); 0 is the first.
        self.jobs_page = 0
        # Seats with a phone connected (None: not known, the display has no host token); the server's summary of a
        # finished game (built from the log); the table's network (Wi-Fi name and its QR payload, the address).
        self.phones: set[int] | None = None
        self.summary: dict[str, Any] | None = None
        self.network: dict[str, Any] | None = None
        # Log entries as lines of text, worked out once per entry (the ticker asks for thirty on every frame that
        # looks for changes); valid for one language and one set of player names (`_lines_for`).
        self._lines: dict[bytes, str] = {}
        self._lines_for: tuple[Any, ...] = ()

    # -- incoming --------------------------------------------------------------------------------
    def apply_message(self, message: dict[str, Any]) -> set[str]:
        kind = message.get("type")
        if kind == "view" and isinstance(message.get("view"), dict):
            return self.set_envelope(message["view"])
        if kind == "connection":
            return self.set_connection(str(message.get("state") or "offline"))
        if kind == "join_codes" and isinstance(message.get("codes"), list):
            return self.set_join_codes(message["codes"], message.get("host_url"))
        if kind == "phones" and isinstance(message.get("seats"), list):
            return self.set_phones(message["seats"])
        if kind == "summary" and isinstance(message.get("summary"), dict):
            return self.set_summary(message["summary"])
        if kind == "network" and isinstance(message.get("network"), dict):
            return self.set_network(message["network"])
        if kind == "choices":
            return self.set_choices(message.get("seat"), message.get("legal") or [], message.get("state_id"))
        if kind == "feedback":
            template = message.get("template")
            params = message.get("params")
            lines = message.get("lines")
            return self.add_feedback(
                bool(message.get("ok")), str(message.get("text") or ""), message.get("seat"),
                str(message.get("source") or ""), message.get("action"),
                template=template if isinstance(template, str) else "",
                params=params if isinstance(params, dict) else None,
                lines=[line for line in lines if isinstance(line, dict) and isinstance(line.get("template"), str)]
                if isinstance(lines, list) else None,
            )
        return set()

    def set_envelope(self, envelope: dict[str, Any]) -> set[str]:
        old = self.envelope or {}
        changed = changed_keys(old, envelope)
        old_view = old.get("view") if isinstance(old.get("view"), dict) else {}
        new_view = envelope.get("view") if isinstance(envelope.get("view"), dict) else {}
        changed |= {f"view.{k}" for k in changed_keys(old_view or {}, new_view or {})}
        self.envelope = envelope
        if old.get("session") != envelope.get("session"):
            self.summary = None
            self.history = {}
            self._last_round = None
            self.lobby_dismissed = False
        if self.record_history(new_view or {}):
            changed.add("history")
        if int(envelope.get("state_id") or 0) > 0:
            self.lobby_dismissed = True
        return changed

    def add_feedback(
        self,
        ok: bool,
        text: str,
        seat: Any = None,
        source: str = "",
        action: dict[str, Any] | None = None,
        *,
        template: str = "",
        params: dict[str, Any] | None = None,
        lines: list[dict[str, Any]] | None = None,
    ) -> set[str]:
        self.feedback.append(Feedback(ok, text, seat, source, self.clock(), action, template, dict(params or {}),
                                      tuple(lines or ())))
        return {"feedback"}

    def set_join_codes(self, codes: Iterable[dict[str, Any]], host_url: str | None = None) -> set[str]:
        self.join_codes = [
            JoinCode(int(c["seat"]), shown_name(c.get("name")), str(c["url"])) for c in codes if "url" in c
        ]
        self.host_url = host_url
        return {"join"}

    def set_phones(self, seats: Iterable[Any]) -> set[str]:
        phones = {s for s in seats if isinstance(s, int) and not isinstance(s, bool)}
        if phones == self.phones:
            return set()
        self.phones = phones
        return {"phones"}

    def set_summary(self, summary: dict[str, Any]) -> set[str]:
        self.summary = summary
        return {"summary"}

    def set_network(self, network: dict[str, Any]) -> set[str]:
        self.network = network
        return {"network"}

    def missing_phones(self) -> list[JoinCode]:
        """Join codes of the seats with no phone connected (none while that is not known)."""
        if self.phones is None:
            return []
        return [c for c in self.join_codes if c.seat not in self.phones]

    def wifi(self) -> tuple[str, str] | None:
        """The table's Wi-Fi as (network name, QR payload), when the server was given it."""
        wifi = (self.network or {}).get("wifi")
        if isinstance(wifi, dict) and isinstance(wifi.get("payload"), str) and wifi["payload"]:
            return str(wifi.get("ssid") or ""), wifi["payload"]
        return None

    # -- the board jobs and what happens now ---------------------------------------------------------
    def board_jobs(self) -> list[dict[str, Any]]:
        """The checklist as the public view carries it: each job's id, its sentence (players named), done."""
        env = self.envelope or {}
        raw = env.get("board_jobs")
        if not isinstance(raw, list):
            raw = self.view.get("board_jobs")
        if not isinstance(raw, list):
            return []
        out = []
        for job in raw:
            if not isinstance(job, dict) or "id" not in job:
                continue
            text = self.log_line({"template": job.get("template"), "args": job.get("params"),
                                  "text": job.get("text")})
            out.append({"id": job["id"], "text": text, "done": bool(job.get("done"))})
        return out

    def open_jobs(self) -> int:
        return sum(1 for j in self.board_jobs() if not j["done"])

    def now_text(self) -> str:
        """The one sentence saying who acts now and how (empty when the server sends none)."""
        env = self.envelope or {}
        now = env.get("now")
        if not isinstance(now, dict):
            now = self.view.get("now")
        if not isinstance(now, dict):
            return ""
        return self.log_line({"template": now.get("template"), "args": now.get("params"), "text": now.get("text")})

    def acting_seats(self) -> list[Any]:
        """Who must act now, from the sentence (Bohnanza: the active player, not everyone who may trade)."""
        env = self.envelope or {}
        now = env.get("now") if isinstance(env.get("now"), dict) else self.view.get("now")
        if isinstance(now, dict) and isinstance(now.get("acting"), list):
            return list(now["acting"])
        return self.current_seats()

    def turn_jobs_page(self, step: int, pages: int) -> set[str]:
        pages = max(1, pages)
        page = (self.jobs_page + step) % pages
        if page == self.jobs_page:
            return set()
        self.jobs_page = page
        return {"jobs"}

    # -- the host's choices (a seat's legal actions, picked by touch or the development keys) -------
    def set_choices(self, seat: Any, legal: list[Any], state_id: Any = None) -> set[str]:
        items = [a for a in legal if isinstance(a, dict)]
        if not items:
            self.choices = None
            self.add_feedback(False, _("there is nothing {who} can do now", who=self.player_name(seat)), None,
                              "display")
            return {"choices", "feedback"}
        self.choices = Choices(seat, [(action_label(a), a) for a in items], state_id if isinstance(state_id, int)
                               else None)
        return {"choices"}

    def close_choices(self) -> set[str]:
        if self.choices is None:
            return set()
        self.choices = None
        return {"choices"}

    def move_choice(self, step: int) -> set[str]:
        if self.choices is None or not self.choices.items:
            return set()
        self.choices.index = (self.choices.index + step) % len(self.choices.items)
        return {"choices"}

    def set_connection(self, state: str) -> set[str]:
        if state == self.connection:
            return set()
        self.connection = state
        return {"connection"}

    def dismiss_lobby(self) -> set[str]:
        self.lobby_dismissed = True
        return {"scene"}

    # -- time ------------------------------------------------------------------------------------
    def live_feedback(self, now: float | None = None) -> list[Feedback]:
        now = self.clock() if now is None else now
        return [f for f in self.feedback if f.expires > now]

    def expire(self, now: float | None = None) -> set[str]:
        """Drop toasts whose time is up; 'feedback' changed if any went."""
        now = self.clock() if now is None else now
        before = len(self.feedback)
        kept = [f for f in self.feedback if f.expires > now]
        if len(kept) == before:
            return set()
        self.feedback = deque(kept, maxlen=FEEDBACK_KEPT)
        return {"feedback"}

    def next_deadline(self) -> float | None:
        """When something on screen changes by itself next (a toast expiring), or None."""
        return min((f.expires for f in self.feedback), default=None)

    # -- reading ---------------------------------------------------------------------------------
    @property
    def view(self) -> dict[str, Any]:
        env = self.envelope or {}
        view = env.get("view")
        return view if isinstance(view, dict) else {}

    @property
    def game(self) -> str:
        return str((self.envelope or {}).get("game") or "")

    @property
    def over(self) -> bool:
        env = self.envelope or {}
        return bool(env.get("over") or self.view.get("over"))

    def scene_name(self) -> str:
        if self.envelope is None:
            return "lobby"
        if self.over:
            return "summary"
        if not self.lobby_dismissed:
            return "lobby"
        return "game"

    def players(self) -> list[dict[str, Any]]:
        players = (self.envelope or {}).get("players")
        return [p for p in players if isinstance(p, dict)] if isinstance(players, list) else []

    def player_name(self, seat: Any) -> str:
        if seat == "table":
            return _("the table")
        if seat == "host":
            return _("the host")
        for p in self.players():
            if p.get("seat") == seat:
                return shown_name(p.get("name")) or _("Player {n}", n=_seat_number(seat))
        if isinstance(seat, int):
            return _("Player {n}", n=seat + 1)
        return str(seat)

    def player_colour(self, seat: Any) -> str:
        for p in self.players():
            if p.get("seat") == seat and p.get("colour"):
                return str(p["colour"])
        return "#888888"

    def current_seats(self) -> list[Any]:
        seats = (self.envelope or {}).get("current_seats")
        if not isinstance(seats, list):
            seats = self.view.get("current_seats")
        return list(seats) if isinstance(seats, list) else []

    def ticker(self) -> list[str]:
        """The log as lines of text, newest last, with seat numbers shown as player names."""
        log = (self.envelope or {}).get("log")
        if not isinstance(log, list):
            return []
        return [self.log_line(entry) for entry in log[-TICKER_KEPT:] if isinstance(entry, dict)]

    def log_line(self, entry: dict[str, Any]) -> str:
        """A log entry (or a feedback's sentence) in words, in the display's language, players by name."""
        valid_for = (language(), western_digits(), self.game, signature(self.players()))
        if valid_for != self._lines_for or len(self._lines) > LINES_KEPT:
            self._lines = {}
            self._lines_for = valid_for
        key = signature(entry)
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = self._log_line(entry)
        return line

    def _log_line(self, entry: dict[str, Any]) -> str:
        template = entry.get("template")
        args = entry.get("args")
        if not isinstance(template, str) or not isinstance(args, dict):
            return str(entry.get("text") or "")
        shown = {}
        game = self.game
        for key, value in args.items():
            is_seat = (isinstance(value, int) and not isinstance(value, bool)) or value in ("host", "table")
            own = arg_words(game, key, value, _)
            if own is not None:
                shown[key] = own
            elif key in SEAT_ARGS and is_seat:
                shown[key] = self.player_name(value)
            elif key in SEAT_LIST_ARGS and isinstance(value, list | tuple):
                shown[key] = ", ".join(self.player_name(v) if isinstance(v, int) else str(v) for v in value)
            elif isinstance(value, list | tuple):
                shown[key] = ", ".join(_word(v) if isinstance(v, str) else str(v) for v in value)
            elif isinstance(value, str):
                shown[key] = _word(value)
            else:
                shown[key] = value
        return _(shown_template(template), **shown)

    def feedback_line(self, fb: Feedback) -> str:
        who = self.player_name(fb.seat) if fb.seat is not None else _(SOURCE_NAMES.get(fb.source, fb.source or "?"))
        if fb.ok and fb.lines:
            # Whole sentences that name the player already ("Ann bought plant 13").
            return "; ".join(self.log_line({"template": line["template"], "args": line.get("params") or {},
                                            "text": fb.text}) for line in fb.lines)
        if fb.template:
            said = self.log_line({"template": fb.template, "args": fb.params, "text": fb.text})
        else:
            said = _(fb.text) if fb.text else ""
        if fb.ok:
            return _("{who}: done", who=who) if not said else _("{who}: {text}", who=who, text=said)
        return _("{who}: refused, {reason}", who=who, reason=said or _("no reason given"))

    # -- history for the summary charts ------------------------------------------------------------
    def record_history(self, view: dict[str, Any]) -> bool:
        """Note each player's money and cities once per round (Power Grid); True if anything was added."""
        round_no = view.get("round")
        players = view.get("players")
        if not isinstance(round_no, int) or not isinstance(players, list):
            return False
        added = False
        for series in ("money", "cities"):
            values = [_number(p.get(series)) if isinstance(p, dict) else None for p in players]
            if any(v is None for v in values):
                continue
            # The latest view of a round wins: the chart shows where each round ended.
            self.history.setdefault(series, {})[round_no] = [float(v) for v in values]  # type: ignore[arg-type]
            added = True
        self._last_round = round_no
        return added

    def history_series(self, series: str) -> tuple[list[int], list[list[float]]]:
        """Rounds and, per seat, the values by round; a history in the view itself wins over what was seen."""
        given = self.view.get("history")
        if isinstance(given, dict) and isinstance(given.get(series), list):
            rows = [r for r in given[series] if isinstance(r, list)]
            rounds = list(range(1, len(rows) + 1))
            return rounds, _transpose(rows)
        seen = self.history.get(series, {})
        rounds = sorted(seen)
        return rounds, _transpose([seen[r] for r in rounds])


def changed_keys(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """Top-level keys whose values differ (added, removed or changed)."""
    return {k for k in set(old) | set(new) if old.get(k, _MISSING) != new.get(k, _MISSING)}


def signature(data: Any) -> bytes:
    """A stable form of JSON-like data: equal signatures mean nothing to redraw (every panel, every frame:
    orjson, which is an order of magnitude quicker than the standard library here)."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


_MISSING = object()


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list | tuple):
        return float(len(value))
    return None


def _seat_number(seat: Any) -> Any:
    return seat + 1 if isinstance(seat, int) else seat


def _transpose(rows: list[list[float]]) -> list[list[float]]:
    if not rows:
        return []
    width = min(len(r) for r in rows)
    return [[row[i] for row in rows] for i in range(width)]
