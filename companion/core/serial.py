"""Stable JSON form of frozen dataclasses (states, actions), driven by their type hints."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

_NONE = type(None)


class DecodeError(ValueError):
    """The JSON does not fit the declared type; the message names the path."""


def to_json(value: Any) -> Any:
    """Encode dataclasses, tuples, frozensets, dicts and enums as plain JSON values.

    Frozensets are sorted so the same state always gives the same text.
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in _fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [to_json(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted((to_json(v) for v in value), key=_sort_key)
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


def _sort_key(v: Any) -> tuple[str, str]:
    return (type(v).__name__, repr(v))


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any, path: str = "$") -> Any:
    """Decode `data` as type `tp`, checking every value; raises DecodeError with the path."""
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin is Literal:
        if data not in get_args(tp):
            raise DecodeError(f"{path}: expected one of {list(get_args(tp))}, got {data!r}")
        return data
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and _NONE in args:
            return None
        errors = []
        for arg in args:
            if arg is _NONE:
                continue
            try:
                return from_json(arg, data, path)
            except DecodeError as exc:
                errors.append(str(exc))
        raise DecodeError(errors[0] if len(errors) == 1 else f"{path}: {data!r} fits none of {args}")
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(data, list):
            raise DecodeError(f"{path}: expected a list, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise DecodeError(f"{path}: expected {len(args)} items, got {len(data)}")
        return tuple(from_json(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data)))
    if origin in (frozenset, set, list):
        (arg,) = get_args(tp)
        if not isinstance(data, list):
            raise DecodeError(f"{path}: expected a list, got {type(data).__name__}")
        items = [from_json(arg, v, f"{path}[{i}]") for i, v in enumerate(data)]
        if origin is list:
            return items
        return origin(items)
    if origin is dict:
        key_tp, val_tp = get_args(tp)
        if not isinstance(data, dict):
            raise DecodeError(f"{path}: expected an object, got {type(data).__name__}")
        out = {}
        for k, v in data.items():
            key = _decode_key(key_tp, k, path)
            out[key] = from_json(val_tp, v, f"{path}.{k}")
        return out
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp):
            return _decode_dataclass(tp, data, path)
        if issubclass(tp, enum.Enum):
            try:
                return tp(data)
            except ValueError:
                raise DecodeError(f"{path}: {data!r} is not a {tp.__name__}") from None
        if tp is bool:
            if not isinstance(data, bool):
                raise DecodeError(f"{path}: expected true or false, got {data!r}")
            return data
        if tp is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise DecodeError(f"{path}: expected a whole number, got {data!r}")
            return data
        if tp is float:
            if isinstance(data, bool) or not isinstance(data, (int, float)):
                raise DecodeError(f"{path}: expected a number, got {data!r}")
            return float(data)
        if tp is str:
            if not isinstance(data, str):
                raise DecodeError(f"{path}: expected text, got {data!r}")
            return data
        if tp is _NONE:
            if data is not None:
                raise DecodeError(f"{path}: expected null, got {data!r}")
            return None
    raise DecodeError(f"{path}: cannot decode type {tp!r}")


def _decode_key(key_tp: Any, key: str, path: str) -> Any:
    if key_tp is int:
        try:
            return int(key)
        except ValueError:
            raise DecodeError(f"{path}: key {key!r} is not a number") from None
    return from_json(key_tp, key, path)


def _decode_dataclass(cls: type[T], data: Any, path: str) -> T:
    if not isinstance(data, dict):
        raise DecodeError(f"{path}: expected an object, got {type(data).__name__}")
    hints = _hints(cls)
    kwargs = {}
    names = set()
    for f in _fields(cls):
        names.add(f.name)
        if f.name in data:
            kwargs[f.name] = from_json(hints[f.name], data[f.name], f"{path}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise DecodeError(f"{path}: missing field {f.name!r}")
    return cls(**kwargs)


def json_schema(tp: Any) -> dict[str, Any]:
    """A JSON schema for a type hint, as used for each action kind."""
    origin = get_origin(tp)
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin in (Union, types.UnionType):
        return {"anyOf": [json_schema(a) for a in get_args(tp)]}
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": json_schema(args[0])}
        return {
            "type": "array",
            "prefixItems": [json_schema(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin in (frozenset, set, list):
        (arg,) = get_args(tp)
        schema = {"type": "array", "items": json_schema(arg)}
        if origin is not list:
            schema["uniqueItems"] = True
        return schema
    if origin is dict:
        return {"type": "object", "additionalProperties": json_schema(get_args(tp)[1])}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if tp is _NONE:
        return {"type": "null"}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp]}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return {
            "type": "object",
            "properties": {f.name: json_schema(hints[f.name]) for f in _fields(tp)},
            "required": [
                f.name
                for f in _fields(tp)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            ],
        }
    return {}
