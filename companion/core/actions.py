"""Actions: frozen dataclasses with a stable JSON form `{"seat": 0, "action": "bid", ...fields}`."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import typing
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from companion.core.errors import MalformedAction
from companion.core.seats import Seat, parse_seat
from companion.core.serial import DecodeError, from_json, json_schema, to_json


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action. `seat` is who acts; subclasses add the rulebook's parameters.

    Class attributes a game may set on a kind:
      kind       the JSON name (default: the class name in snake case);
      host_only  only the host may submit it (corrections);
      summary    one line for `companion actions` and the phone's buttons;
      private_fields  fields the table may not see even when everything the action caused is public
                 (Bohnanza's `give`: positions in the giver's hand).
    """

    seat: Seat

    kind: ClassVar[str] = ""
    host_only: ClassVar[bool] = False
    summary: ClassVar[str] = ""
    private_fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" not in cls.__dict__ or not cls.__dict__["kind"]:
            cls.kind = _snake(cls.__name__)

    def to_json(self) -> dict[str, Any]:
        return _encoder(type(self))(self)

    def params(self) -> dict[str, Any]:
        """The fields other than the seat, as JSON."""
        data = to_json(self)
        data.pop("seat")
        return data


_PLAIN = frozenset({int, str, float, bool, type(None)})


def _value(value: Any) -> Any:
    """A field's JSON: plain values (most of them) as they are, a tuple of them as a list (cards given or asked
    for in a trade), anything else through the general encoder."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple and all(type(v) in _PLAIN for v in value):
        return list(value)
    return to_json(value)


def _reader(name: str, hint: Any) -> str:
    """The expression giving field `name`'s JSON: a field declared as a plain value, or as a tuple of them, is
    copied without looking at each value's type (parsing checks every field against its declared type)."""
    if hint in (int, str, bool, float):
        return f"self.{name}"
    args = typing.get_args(hint)
    if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] in (int, str):
        return f"list(self.{name})"
    return f"_value(self.{name})"


@functools.cache
def _encoder(cls: type[Action]) -> Callable[[Action], dict[str, Any]]:
    """The function writing one action kind's JSON, made once per kind from its fields, the way `dataclasses`
    makes `__init__`. Every phone's view lists its legal actions as JSON after every change (when Bohnanza's
    trading opens, some 350 new offers for seven phones): reading the fields by name in a loop took three times
    as long. Field names are identifiers (dataclass fields), so the source is only attribute reads."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # a hint that does not resolve: every field through `_value`
        hints = {}
    fields = "".join(f"{name!r}: {_reader(name, hints.get(name))}, " for name in _field_names(cls))
    source = f"def encode(self):\n    return {{'seat': _value(self.seat), 'action': {cls.kind!r}, {fields}}}\n"
    namespace: dict[str, Any] = {"_value": _value}
    exec(source, namespace)  # the source is built from the class's own field names and kind, never from input
    return namespace["encode"]


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The JSON fields of an action kind besides its seat, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.init and f.name != "seat")


class ActionSet:
    """The action kinds of one game: parses JSON into actions and describes them."""

    def __init__(self, kinds: Iterable[type[Action]]) -> None:
        self.kinds: dict[str, type[Action]] = {}
        for k in kinds:
            if k.kind in self.kinds:
                raise ValueError(f"two action kinds named {k.kind!r}")
            self.kinds[k.kind] = k

    def parse(self, data: Any) -> Action:
        """Parse an action from JSON text or a decoded object; raises MalformedAction."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as exc:
                raise MalformedAction(f"not JSON: {exc}") from None
        if not isinstance(data, dict):
            raise MalformedAction("an action is a JSON object with 'seat' and 'action'")
        kind = data.get("action")
        if not isinstance(kind, str):
            raise MalformedAction("the action has no 'action' kind")
        cls = self.kinds.get(kind)
        if cls is None:
            raise MalformedAction(f"unknown action {kind!r}; known: {', '.join(sorted(self.kinds))}")
        if "seat" not in data:
            raise MalformedAction("the action has no 'seat'")
        try:
            seat = parse_seat(data["seat"])
        except ValueError as exc:
            raise MalformedAction(str(exc)) from None
        fields = {k: v for k, v in data.items() if k not in ("action",)}
        fields["seat"] = seat
        allowed = {f.name for f in dataclasses.fields(cls)}
        extra = set(fields) - allowed
        if extra:
            raise MalformedAction(f"{kind}: unexpected field(s) {', '.join(sorted(extra))}")
        try:
            return from_json(cls, fields, kind)
        except DecodeError as exc:
            raise MalformedAction(str(exc)) from None
        except TypeError as exc:  # a dataclass __post_init__ refusing a value
            raise MalformedAction(f"{kind}: {exc}") from None

    def schema(self, kind: str) -> dict[str, Any]:
        cls = self.kinds[kind]
        schema = json_schema(cls)
        schema["properties"] = {
            "seat": {"anyOf": [{"type": "integer", "minimum": 0}, {"enum": ["table", "host"]}]},
            "action": {"const": kind},
            **{k: v for k, v in schema["properties"].items() if k != "seat"},
        }
        schema["required"] = ["seat", "action", *[r for r in schema["required"] if r != "seat"]]
        schema["additionalProperties"] = False
        schema["title"] = kind
        if cls.summary:
            schema["description"] = cls.summary
        return schema

    def schemas(self) -> dict[str, dict[str, Any]]:
        return {k: self.schema(k) for k in self.kinds}
