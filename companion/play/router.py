"""The input router: what a seat button, a keypad key or a tapped card means in the current phase of the game.

The controller knows no rules; the router turns each of its events into a decision: an action to submit (as the
seat, the table or the host), an undo, a note (the input was taken but changed only the router's own selection,
such as a stone picked on the keypad) or a refusal with the reason. Each game's meanings live in
`companion/play/inputs/<game>.py`; what is common (tags, UNDO, the game being over) is here.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Literal, Protocol, cast

from companion.core.actions import Action
from companion.core.errors import CompanionError, IllegalAction
from companion.core.game import Game
from companion.core.public import refusal_is_public
from companion.core.registry import get_game
from companion.core.seats import HOST, TABLE, Seat
from companion.core.table import JobDone
from companion.link.events import BoardEvent
from companion.store import Session

Source = Literal["seat", "key", "tag"]
Gesture = Literal["press", "long", "double"]
GESTURES: tuple[Gesture, ...] = ("press", "long", "double")
DIGITS: tuple[str, ...] = tuple("123456789")
# How long a seat button keeps the keypad pointed at its seat (Bohnanza's harvest keys).
FOCUS_SECONDS = 10.0


@dataclasses.dataclass(frozen=True)
class Press:
    """One controller input, normalised: a seat button, a key, or a tag already resolved to its card."""

    source: Source
    gesture: Gesture = "press"
    seat: int | None = None
    key: str | None = None
    card: str | None = None

    @property
    def digit(self) -> int | None:
        """1–9 for a keypad key, None for the others."""
        return int(self.key) if self.key in DIGITS else None

    def is_key(self, name: str) -> bool:
        return self.source == "key" and self.key == name

    def describe(self) -> str:
        if self.source == "seat":
            what = {"press": "", "long": " held", "double": " pressed twice"}[self.gesture]
            return f"seat button {(self.seat or 0) + 1}{what}"  # numbered 1–7 as on the controller
        if self.source == "key":
            name = (self.key or "?").upper() if self.digit is None else f"key {self.key}"
            return name + (" held" if self.gesture == "long" else "")
        return f"tap of {self.card}"


def seat_press(seat: int, gesture: Gesture = "press") -> Press:
    return Press("seat", gesture, seat=seat)


def key_press(key: str, gesture: Gesture = "press") -> Press:
    return Press("key", gesture, key=key)


def tap(card: str) -> Press:
    return Press("tag", card=card)


@dataclasses.dataclass(frozen=True)
class Act:
    """Submit `action` as `actor`, against the state the router saw."""

    action: Action
    actor: Seat
    state_id: int


@dataclasses.dataclass(frozen=True)
class Undo:
    actor: Seat
    state_id: int


@dataclasses.dataclass(frozen=True)
class Note:
    """Taken, but no game action yet (a stone picked, a seat chosen); the text is shown to everyone.

    `template` and `params` are the text's message id and arguments (see `note`), so the display and the phones
    show it in their language; without them the text is its own message id.
    """

    text: str
    seat: Seat | None = None
    template: str = dataclasses.field(default="", compare=False)
    params: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)


def note(template: str, seat: Seat | None = None, *, english: str | None = None, **params: Any) -> Note:
    """A Note from a template and its arguments (`note("the {cell} stone is picked", seat, cell="top left")`);
    `english` words the English text otherwise (seats as "seat 2" where the template names the player)."""
    return Note(english if english is not None else template.format(**params), seat, template, params)


@dataclasses.dataclass(frozen=True)
class Refuse:
    """Refused before the rules were asked (or by a dry run of them).

    `template` and `params` are the reason's message id and arguments (from the refusal it came from), so the
    display and the phones show it in their language; two refusals with the same English reason are equal.
    `public` says whether the whole table may hear the reason (the game decides, see `refusal_is_public`): a tap
    of a card in someone's hand is refused with where it is, which only that seat's phone may show; the display
    then says only that a move was refused.
    """

    reason: str
    seat: Seat | None = None
    template: str = dataclasses.field(default="", compare=False)
    params: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    public: bool = dataclasses.field(default=False, compare=False)

    @classmethod
    def of(cls, exc: CompanionError, seat: Seat | None = None, game: Game[Any] | None = None) -> Refuse:
        """The refusal `exc` states, for `seat`; public when the game (or the core) says its reason may be."""
        return cls(exc.reason, seat, exc.template, dict(exc.params), refusal_is_public(game, exc))


Decision = Act | Undo | Note | Refuse


@dataclasses.dataclass(frozen=True)
class Binding:
    """One row of the input table in docs/play.md: in this phase, this input does that."""

    phase: str
    input: str
    meaning: str


# What every game shares (the games' own tables are in companion/play/inputs/).
BINDINGS: tuple[Binding, ...] = (
    Binding("any", "UNDO", "undoes the last action as the seat that made it (the seats' rule: only within that "
            "turn, and never a reveal)"),
    Binding("any", "UNDO held", "the host's undo: the last action whatever it was, a mistaken reveal too"),
    Binding("any", "a tag that is not enrolled", "refused: enroll this tag first (`companion tags enroll GAME`)"),
    Binding("any", "a card of another game", "refused, saying which card it is"),
    Binding("any", "the button of a seat that is not to act", "refused, saying whose turn it is (Bohnanza: "
            "chooses that seat for the keys)"),
    Binding("any", "a seat button beyond the players", "refused"),
    Binding("the game is over", "anything but UNDO", "refused: the game is over"),
    Binding("any, with board jobs open", "OK (when OK means nothing else now)",
            "ticks the oldest open board job off the checklist (`job_done`)"),
)


@dataclasses.dataclass
class Memory:
    """What the router keeps between inputs. All of it is forgotten when a new turn starts."""

    turn: Hashable = None
    focus: int | None = None  # the seat whose button was pressed last
    focus_at: float = 0.0
    picked: int | None = None  # a grid cell picked on the keypad, valid only in the state it was picked in
    picked_state: int = -1
    spend: str | None = None  # the card tapped to pay for the next shift or flip
    faces: list[str] = dataclasses.field(default_factory=list)  # a starting grid being entered on the keypad

    def forget(self, turn: Hashable) -> None:
        """A new turn: drop the selections (a starting grid being entered stays: it spans no turn)."""
        self.turn = turn
        self.focus = None
        self.focus_at = 0.0
        self.picked = None
        self.picked_state = -1
        self.spend = None


@dataclasses.dataclass
class Context:
    """What a game's input rules see: the engine, the state as of `state_id`, the router's memory and the time."""

    game: Game[Any]
    state: Any
    state_id: int
    memory: Memory
    now: float
    players: int

    def act(self, action: Action, actor: Seat | None = None) -> Act:
        return Act(action, action.seat if actor is None else actor, self.state_id)

    def checked(self, action: Action, actor: Seat | None = None) -> Act:
        """An Act only if the rules take it now (engines are pure, so it is tried on the state itself); otherwise
        the rules' IllegalAction. Use it for actions naming a private card: a refusal must not show the card."""
        self.game.apply(self.state, action)
        return self.act(action, actor)

    def current(self) -> tuple[Seat, ...]:
        return tuple(self.game.current_seats(self.state))

    def set_focus(self, seat: int) -> None:
        self.memory.focus = seat
        self.memory.focus_at = self.now

    def focused(self, default: int) -> int:
        """The seat whose button was pressed in the last few seconds, else `default`."""
        memory = self.memory
        if memory.focus is not None and self.now - memory.focus_at <= FOCUS_SECONDS:
            return memory.focus
        return default


class GameInputs(Protocol):
    """What each module in companion/play/inputs/ provides."""

    BINDINGS: tuple[Binding, ...]
    # A module may also say `SEARCHES = True`: interpreting an input may search (Shifting Stones works out the
    # card a move spends), so the table decides its inputs in a worker thread rather than on the event loop.

    def interpret(self, ctx: Context, press: Press) -> Decision:
        """The decision for `press` now; may raise IllegalAction with the reason (the table hears it only if it
        is one of the game's `public_refusals`)."""
        ...

    def candidates(self, ctx: Context, action: Action) -> list[list[Press]]:
        """Input sequences that may make `action` now (the router checks each by a dry run)."""
        ...


class _Generic:
    """A game without its own input module: tags mean what the game says; moves are made on the phones."""

    BINDINGS: tuple[Binding, ...] = (
        Binding("any", "tap a card", "what the game says a tap of that card means now"),
    )

    def interpret(self, ctx: Context, press: Press) -> Decision:
        if press.source == "tag" and press.card is not None:
            return ctx.act(ctx.game.tag_action(ctx.state, press.card))
        raise IllegalAction("{game} takes its moves on the phones; the controller only reads cards",
                            game=ctx.game.title)

    def candidates(self, ctx: Context, action: Action) -> list[list[Press]]:
        return []


def inputs_for(game_name: str) -> GameInputs:
    """The game's input module, or the generic one (tags only) for a game without one."""
    try:
        module = importlib.import_module(f"companion.play.inputs.{game_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"companion.play.inputs.{game_name}":
            raise
        return _Generic()
    return cast(GameInputs, module)


class Router:
    """Decides what each controller event means for one session. Call `decide` with the session's lock held (the
    state and its id are read together), then carry out the decision."""

    def __init__(self, session: Session, clock: Callable[[], float] = time.monotonic) -> None:
        self.session = session
        self.game = session.game
        self.inputs = inputs_for(self.game.name)
        self.searches: bool = bool(getattr(self.inputs, "SEARCHES", False))
        self.memory = Memory()
        self.clock = clock

    # -- events ------------------------------------------------------------------------------------
    def press_for(self, event: BoardEvent) -> Press | Refuse | None:
        """The input an event is, a refusal (a tag that is no card of this game), or None (releases, snapshots,
        a tag taken off the reader: they mean nothing)."""
        if event.kind == "button" and event.button is not None and event.action in GESTURES:
            return seat_press(event.button, cast(Gesture, event.action))
        if event.kind == "key" and event.key and event.action in GESTURES:
            return key_press(event.key, cast(Gesture, event.action))
        if event.kind == "tag" and event.present and event.uid:
            try:
                found = self.session.store.lookup_tag(event.uid)
            except CompanionError as exc:
                return Refuse.of(exc)
            if found is None:
                return Refuse.of(IllegalAction("tag {uid} is not enrolled: enroll this tag first (companion tags "
                                               "enroll {name})", uid=event.uid, name=self.game.name))
            game_name, card = found
            if game_name != self.game.name:
                return Refuse.of(IllegalAction("that tag is {card} of {other}, not a {game} card",
                                               card=_card(game_name, card), other=_title(game_name),
                                               game=self.game.title))
            return tap(card)
        return None

    def decide(self, event: BoardEvent) -> Decision | None:
        press = self.press_for(event)
        if press is None or isinstance(press, Refuse):
            return press
        return self.decide_press(press)

    def decide_press(self, press: Press) -> Decision:
        session = self.session
        state_id, state = session.state_id, session.state
        ctx = self._context(state, state_id, self.memory)
        if press.is_key("undo"):
            return self._undo(press, state_id)
        if session.status == "ended":
            return Refuse.of(IllegalAction("this game has ended"))
        if self.game.is_over(state):
            job = self._open_job() if press.is_key("ok") else None
            if job is not None:
                return Act(JobDone(TABLE, job), TABLE, state_id)
            return Refuse.of(IllegalAction("the game is over"))
        if press.source == "seat" and not 0 <= (press.seat or 0) < ctx.players:
            return Refuse.of(IllegalAction("there is no seat {number} at this table of {players}",
                                           number=press.seat, players=ctx.players))
        try:
            return self.inputs.interpret(ctx, press)
        except IllegalAction as exc:
            job = self._open_job() if press.is_key("ok") else None
            if job is not None:
                # OK means nothing to the rules now, but the table has board jobs open: it ticks the oldest.
                return Act(JobDone(TABLE, job), TABLE, state_id)
            return Refuse.of(exc, press.seat, self.game)

    def _open_job(self) -> str | None:
        jobs = self.session.open_jobs()
        return jobs[0].id if jobs else None

    def _context(self, state: Any, state_id: int, memory: Memory) -> Context:
        turn = self.game.turn_id(state)
        if turn != memory.turn:
            memory.forget(turn)
        return Context(self.game, state, state_id, memory, self.clock(), self.session.config.players)

    def _undo(self, press: Press, state_id: int) -> Decision:
        """UNDO: the last action, as the seat that made it (the seats' rules: own turn, no reveal); held, as
        the host (anything, a mistaken reveal too)."""
        if press.gesture == "long":
            return Undo(HOST, state_id)
        actions = self.session.live_actions()
        if not actions:
            return Refuse.of(IllegalAction("there is nothing to undo"))
        last = actions[-1].seat
        if last == HOST:
            return Refuse.of(IllegalAction("the last action was the host's: hold UNDO to undo it as the host"))
        return Undo(last, state_id)

    # -- planning: which inputs make a given action (scripts, benches, help) ------------------------
    def plan(self, action: Action) -> list[Press] | None:
        """The inputs that make `action` from the current state and selection, checked by a dry run on a copy of
        the router's memory; None when the action is made on a phone or the host page instead."""
        session = self.session
        state_id, state = session.state_id, session.state
        if self.game.is_over(state):
            return None
        ctx = self._context(state, state_id, self.memory)
        for sequence in self.inputs.candidates(ctx, action):
            if self._dry_run(sequence, state, state_id) == action:
                return sequence
        return None

    def _dry_run(self, sequence: Sequence[Press], state: Any, state_id: int) -> Action | None:
        memory = copy.deepcopy(self.memory)
        for i, press in enumerate(sequence):
            ctx = self._context(state, state_id, memory)
            try:
                decision = self.inputs.interpret(ctx, press)
            except IllegalAction:
                return None
            last = i == len(sequence) - 1
            if isinstance(decision, Act) and last:
                return decision.action
            if not isinstance(decision, Note):
                return None
        return None


def _card(game_name: str, card: str) -> str:
    """How the card's own game names it ("plant 13"), else its id."""
    try:
        return get_game(game_name).card_label(card)
    except CompanionError:
        return f"card {card}"


def _title(game_name: str) -> str:
    try:
        return get_game(game_name).title
    except CompanionError:
        return game_name


def seat_of(decision: Decision) -> Seat | None:
    """The seat a decision concerns (for the lights and the feedback line)."""
    if isinstance(decision, Act):
        return decision.action.seat if decision.action.seat not in (TABLE, HOST) else None
    if isinstance(decision, Undo):
        return decision.actor if isinstance(decision.actor, int) else None
    return decision.seat
