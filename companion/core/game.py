"""The game contract every rules engine fulfils, its configuration and its options."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from companion.core.actions import Action, ActionSet
from companion.core.errors import BadConfig, IllegalAction
from companion.core.log import LogMessage
from companion.core.seats import TABLE, Seat
from companion.core.serial import from_json, to_json
from companion.core.table import Now, generic_now
from companion.core.words import Words

Mode = Literal["digital", "physical"]
MODES: tuple[Mode, ...] = ("digital", "physical")

S = TypeVar("S")


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """A named rules option (RULINGS.md names them), with its type, default and help."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    # Whole-number options are bounded (a game option never needs more than a million of anything).
    minimum: int = -1_000_000
    maximum: int = 1_000_000

    def parse(self, raw: Any) -> Any:
        """Accept a JSON value or command-line text for this option."""
        value = raw
        if isinstance(raw, str) and self.type is not str:
            text = raw.strip().lower()
            if self.type is bool:
                if text in ("1", "true", "yes", "on"):
                    value = True
                elif text in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise BadConfig(f"option {self.name} takes true or false, not {_short(raw)}")
            elif self.type is int:
                try:
                    value = int(text)
                except ValueError:
                    raise BadConfig(f"option {self.name} takes a whole number, not {_short(raw)}") from None
        if (self.type is int and isinstance(value, bool)) or not isinstance(value, self.type):
            raise BadConfig(f"option {self.name} takes a {self.type.__name__}, not {_short(raw)}")
        if self.type is int and not self.minimum <= value <= self.maximum:
            raise BadConfig(f"option {self.name} is from {self.minimum} to {self.maximum}, not {_short(raw)}")
        if isinstance(value, str) and len(value) > 100:
            raise BadConfig(f"option {self.name} is at most 100 characters long")
        if self.choices is not None and value not in self.choices:
            raise BadConfig(f"option {self.name} is one of {', '.join(map(str, self.choices))}, not {_short(raw)}")
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices is not None else None,
            **({"minimum": self.minimum, "maximum": self.maximum} if self.type is int else {}),
        }


def _short(raw: Any) -> str:
    """A bad value as a refusal quotes it: at most a few dozen characters (a number may be huge)."""
    try:
        text = repr(raw)
    except ValueError:  # an integer too long to print
        return "a number far too large"
    return text if len(text) <= 24 else text[:20] + "…"


@dataclasses.dataclass(frozen=True)
class ChanceEvent:
    """A source of chance in a game and the TABLE action that resolves it in physical mode."""

    name: str
    help: str
    reveal: type[Action]


@dataclasses.dataclass(frozen=True)
class GameConfig:
    """What `setup` needs: player count, chance mode per event, and the rules options."""

    players: int
    mode: Mode = "digital"
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    # Per chance event, a mode that differs from `mode` (a session may mix them).
    chance: Mapping[str, Mode] = dataclasses.field(default_factory=dict)

    def option(self, name: str) -> Any:
        return self.options[name]

    def chance_mode(self, event: str) -> Mode:
        return self.chance.get(event, self.mode)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "mode": self.mode,
            "options": dict(self.options),
            "chance": dict(self.chance),
        }


def chance_rng(seed: int, *keys: Hashable) -> random.Random:
    """A private RNG for one chance event, derived from the session seed and the event's keys.

    Engines stay pure: the same state always reshuffles the same way, so replay is exact.
    """
    text = ":".join([str(seed), *map(str, keys)])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


class Bot(Protocol):
    def choose(
        self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action | None:
        """One of `legal`; or None to pass when nothing is required of this seat now (another seat acts)."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    def choose(self, game: Game[Any], state: Any, seat: Seat, legal: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal))


class Game(ABC, Generic[S]):
    """A rules engine. Pure: no I/O, no clock, no global random; states and actions are frozen.

    Subclasses set the class attributes and implement the abstract methods. `apply` must leave the
    given state untouched and raise IllegalAction (or NotYourTurn) with a reason a player understands.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    action_kinds: ClassVar[tuple[type[Action], ...]]
    state_type: ClassVar[type]
    chance_events: ClassVar[tuple[ChanceEvent, ...]] = ()
    # The most actions a finished random game may take; the playout harness flags longer games.
    max_game_length: ClassVar[int] = 20_000
    # Refusal templates the whole table may hear (on the display, the public stream): ones that name no secret,
    # such as whose turn it is. Every other refusal reaches only whoever tried; the table hears "a move was refused".
    public_refusals: ClassVar[frozenset[str]] = frozenset()

    def __init__(self) -> None:
        self.actions = ActionSet(self.action_kinds)

    # -- configuration ---------------------------------------------------------------------------
    def make_config(
        self,
        players: int,
        mode: Mode = "digital",
        options: Mapping[str, Any] | None = None,
        chance: Mapping[str, Mode] | None = None,
    ) -> GameConfig:
        """Validate and complete a configuration (defaults filled in); raises BadConfig."""
        if not self.min_players <= players <= self.max_players:
            raise BadConfig(f"{self.title} takes {self.min_players}–{self.max_players} players, not {players}")
        if mode not in MODES:
            raise BadConfig(f"mode is digital or physical, not {_short(mode)}")
        specs = {o.name: o for o in self.options}
        values = {o.name: o.default for o in self.options}
        for key, raw in (options or {}).items():
            if key not in specs:
                known = ", ".join(specs) or "none"
                raise BadConfig(f"{self.title} has no option {_short(key)} (options: {known})")
            values[key] = specs[key].parse(raw)
        events = {e.name for e in self.chance_events}
        for key, m in (chance or {}).items():
            if key not in events:
                known = ", ".join(events) or "none"
                raise BadConfig(f"{self.title} has no chance event {_short(key)} (events: {known})")
            if m not in MODES:
                raise BadConfig(f"chance mode is digital or physical, not {_short(m)}")
        return GameConfig(players, mode, values, dict(chance or {}))

    def config_from_json(self, data: Mapping[str, Any]) -> GameConfig:
        return self.make_config(data["players"], data.get("mode", "digital"), data.get("options"), data.get("chance"))

    # -- the contract ----------------------------------------------------------------------------
    @abstractmethod
    def setup(self, config: GameConfig, rng: random.Random) -> S:
        """The starting state; all chance at setup in digital mode comes from `rng`."""

    @abstractmethod
    def current_seats(self, state: S) -> tuple[Seat, ...]:
        """Seats that may act now (TABLE when a physical reveal is awaited)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """Every action `seat` may take now, each concrete; finite and small enough to enumerate."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> tuple[S, list[LogMessage]]:
        """The next state and what happened; raises IllegalAction and leaves `state` alone."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def scores(self, state: S) -> dict[str, Any]:
        """`{"scores": [per seat], "winners": [seats], ...}`; meaningful at any time, final once over."""

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may know (None: the public table), as JSON. The only way state leaves."""

    @abstractmethod
    def indistinguishable(self, state: S, seat: Seat | None, rng: random.Random) -> S:
        """A state `seat` could not tell apart from `state`: every secret of others re-drawn.

        This is how a game declares what is hidden: the harness checks that `view(state, seat)`
        equals `view(indistinguishable(state, seat, rng), seat)`.
        """

    # -- undo support (sensible defaults) --------------------------------------------------------
    def turn_id(self, state: S) -> Hashable:
        """Changes whenever a new turn starts; a seat may undo only within the current turn."""
        return None

    def reveals_information(self, before: S, action: Action, after: S) -> bool:
        """True when the action showed someone hidden information (a draw); a seat can't undo it."""
        return action.seat == TABLE

    # -- the public projection ------------------------------------------------------------------
    def public_action(self, action: Action, log: Sequence[LogMessage]) -> dict[str, Any]:
        """What the whole table may see of an accepted action: all of it when everything it caused was public,
        less the kind's `private_fields`; only who did which kind of action when it showed someone a secret."""
        data = action.to_json()
        if action.seat == TABLE or any(m.visible_to is not None for m in log):
            return {"seat": data["seat"], "action": data["action"]}
        for name in type(action).private_fields:
            data.pop(name, None)
        return data

    # -- the table: board jobs, what happens now, the end-of-game series ------------------------
    def board_jobs(self, before: S | None, action: Action | None, after: S) -> list[LogMessage]:
        """What the people must now do on the real board because of `action` (None: the setup), one job a message.

        The session numbers them and keeps each on the checklist until someone marks it done.
        """
        return []

    def now(self, state: S) -> Now:
        """One sentence naming who acts and how, for every phase; never empty."""
        return generic_now(self.current_seats(state), self.is_over(state))

    def series(self, state: S) -> dict[str, list[int]]:
        """The figures the end-of-game charts follow, per seat (`{"money": [50, 50, 50]}`), read from `state`."""
        return {}

    def round_of(self, state: S) -> int:
        """The round (or turn of the table) `state` is in; the summary takes one point of each series per round."""
        return 0

    def tie_break(self, state: S) -> LogMessage | None:
        """How the winner was decided when totals tied, in words (None: no tie to break)."""
        return None

    # -- the host's corrections -----------------------------------------------------------------
    def correction_forms(self, state: S) -> dict[str, dict[str, Any]]:
        """The host page's form for each correction kind: by default its JSON schema (read as lists by the page); a
        game whose corrections pick things on the table gives `{title, fields: [{name, label, choices | min, max}]}`
        built from `state`, never naming a secret."""
        return {kind: self.actions.schema(kind) for kind, cls in self.actions.kinds.items() if cls.host_only}

    # -- physical cards (NFC tags) ---------------------------------------------------------------
    def cards(self) -> tuple[str, ...]:
        """Ids of the physical cards that can carry an NFC tag, in the order enrollment asks for them."""
        return ()

    def card_words(self, card: str) -> Words:
        """How a card id reads for people, as a message each page says in its language ("plant {n}", n=27)."""
        return Words("{card}", {"card": card})

    def card_label(self, card: str) -> str:
        """The card in English words ("plant 27", "Chili Bean 3 of 18"): the command line's and the logs'."""
        return str(self.card_words(card))

    def tag_action(self, state: S, card: str) -> Action:
        """What a tap of this physical card means now: a TABLE reveal when one is awaited, otherwise the
        current player's move with that card (choose a plant, score a pattern).

        Raises IllegalAction saying where the card is when the tap means nothing now
        ("plant 27 is already in the market").
        """
        raise IllegalAction(f"{self.title} does not use tagged cards")

    # -- helpers ---------------------------------------------------------------------------------
    def bots(self) -> dict[str, Bot]:
        """Named bots for `companion selfplay --bot`; games add their own."""
        return {"random": RandomBot()}

    def hints(self, state: S, seat: Seat) -> dict[str, Any]:
        """Advice for a seat's phone; games with hints override."""
        return {}

    def warm_up(self) -> None:
        """Build the tables the hints use, in a hint worker before its first job (so the first hints of a game do
        not spend their time budget on them); games whose hints keep such tables override."""

    def state_to_json(self, state: S) -> Any:
        return to_json(state)

    def state_from_json(self, data: Any) -> S:
        return from_json(self.state_type, data)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "players": [self.min_players, self.max_players],
            "options": [o.to_json() for o in self.options],
            "chance_events": [{"name": e.name, "help": e.help, "reveal": e.reveal.kind} for e in self.chance_events],
            "actions": sorted(self.actions.kinds),
        }


def replay(game: Game[S], config: GameConfig, seed: int, actions: Sequence[Action]) -> tuple[S, list[LogMessage]]:
    """Rebuild a state from the setup and the action log."""
    state = game.setup(config, random.Random(seed))
    log: list[LogMessage] = []
    for action in actions:
        state, messages = game.apply(state, action)
        log.extend(messages)
    return state, log
