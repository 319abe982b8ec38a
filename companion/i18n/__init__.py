"""Message catalogs: English source strings as ids, one JSON catalog per language, CLDR plural categories."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

CATALOG_DIR = Path(__file__).parent / "catalogs"
SOURCE_LANGUAGE = "en"

# Plural rules for whole numbers, by the name a catalog gives in "plural". Browsers use Intl.PluralRules
# (the same CLDR categories); these serve the server side and browsers without Intl.
PLURAL_RULES: dict[str, Callable[[int], str]] = {
    # English, Sindhi, and most languages: "one" for exactly 1.
    "one_is_1": lambda n: "one" if n == 1 else "other",
    # Bengali, Sinhala: "one" for 0 and 1.
    "one_is_0_or_1": lambda n: "one" if n in (0, 1) else "other",
    # Icelandic: "one" for numbers ending in 1 except those ending in 11 (21, 31, 101 …).
    "one_ends_in_1_not_11": lambda n: "one" if n % 10 == 1 and n % 100 != 11 else "other",
    # No plural distinction at all.
    "other_only": lambda n: "other",
}


@dataclass(frozen=True)
class Catalog:
    """The translations of one language; a missing message falls back to the English source string."""

    lang: str
    name: str
    dir: str = "ltr"
    plural: str = "one_is_1"
    messages: dict[str, Any] = field(default_factory=dict)

    def plural_category(self, n: int) -> str:
        return PLURAL_RULES[self.plural](abs(int(n)))

    def gettext(self, msgid: str, **args: Any) -> str:
        """`msgid` translated and formatted; a placeholder without an argument stays as it is."""
        text = self.messages.get(msgid, msgid)
        if isinstance(text, dict):
            text = text.get("other", msgid)
        return _format(text, args)

    def ngettext(self, msgid: str, n: int, **args: Any) -> str:
        """The plural form of `msgid` for `n` (also passed as `{count}`)."""
        entry = self.messages.get(msgid)
        args.setdefault("count", n)
        if isinstance(entry, dict):
            text = entry.get(self.plural_category(n)) or entry.get("other") or msgid
        elif isinstance(entry, str):
            text = entry
        else:
            text = msgid
        return _format(text, args)

    def to_json(self) -> dict[str, Any]:
        return {"lang": self.lang, "name": self.name, "dir": self.dir, "plural": self.plural,
                "messages": self.messages}


class _Lenient(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _format(text: str, args: dict[str, Any]) -> str:
    if not args:
        return text
    try:
        return text.format_map(_Lenient(args))
    except (ValueError, IndexError, AttributeError):
        return text


def available() -> list[str]:
    """Languages with a catalog, English first."""
    langs = sorted(p.stem for p in CATALOG_DIR.glob("*.json"))
    return sorted(langs, key=lambda lang: (lang != SOURCE_LANGUAGE, lang))


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of `lang`, or the English one when there is none."""
    path = CATALOG_DIR / f"{lang}.json"
    if lang not in available():
        path = CATALOG_DIR / f"{SOURCE_LANGUAGE}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    plural = data.get("plural", "one_is_1")
    if plural not in PLURAL_RULES:
        raise ValueError(f"{path.name}: unknown plural rule {plural!r} (known: {', '.join(PLURAL_RULES)})")
    return Catalog(data["lang"], data["name"], data.get("dir", "ltr"), plural, data.get("messages", {}))


def for_browser(lang: str) -> dict[str, Any]:
    """A catalog for a page: the language's messages over the English ones, so nothing is ever missing."""
    own = catalog(lang)
    source = catalog(SOURCE_LANGUAGE)
    return {**own.to_json(), "messages": {**source.messages, **own.messages}}


def negotiate(requested: str | None, accept_language: str | None = None) -> str:
    """The best available language: an explicit choice, then the browser's preferences, then English."""
    langs = available()
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, index, tag))
    candidates = ([requested] if requested else []) + [tag for _, _, tag in sorted(weighted)]
    for tag in candidates:
        tag = tag.strip().lower().replace("_", "-")
        for option in (tag, tag.split("-")[0]):
            if option in langs:
                return option
    return SOURCE_LANGUAGE
