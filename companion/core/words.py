"""Words: a short message (template and params) that reads in English here and in each page's language there."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Words:
    """A template and its params, for names of things inside other messages ("Tap {card}" with the card as
    "plant {n}"): a param may be Words again, or a list of words read one after another ("seed fish / tree *").
    `str()` is the English; `to_json()` is what the pages translate, each part through their catalog."""

    template: str
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**{k: _english(v) for k, v in self.params.items()})

    def to_json(self) -> dict[str, Any]:
        return {"template": self.template, "params": {k: _json(v) for k, v in self.params.items()}}


def _english(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value) if isinstance(value, Words) else value


def _json(value: Any) -> Any:
    if isinstance(value, Words):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value
