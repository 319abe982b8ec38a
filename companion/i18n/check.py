"""Compares the catalogs with the English source: every message translated, placeholders kept, plural forms present."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.i18n import CATALOG_DIR, PLURAL_RULES, SOURCE_LANGUAGE, available
from companion.i18n.fonts import script_of

PLACEHOLDER = re.compile(r"\{(\w+)\}")
# The plural categories each rule needs a form for.
CATEGORIES = {"one_is_1": ("one", "other"), "one_is_0_or_1": ("one", "other"),
              "one_ends_in_1_not_11": ("one", "other"), "other_only": ("other",)}


@dataclasses.dataclass(frozen=True)
class Problem:
    lang: str
    kind: str  # missing, obsolete, placeholders, plural, untranslated, format
    msgid: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.lang}: {self.kind}: {self.msgid!r}{' — ' + self.detail if self.detail else ''}"


def load(lang: str, folder: Path = CATALOG_DIR) -> dict[str, Any]:
    return json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))


def forms(entry: Any) -> list[str]:
    return [v for v in entry.values() if isinstance(v, str)] if isinstance(entry, dict) else [entry]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def source_problems(found: Iterable[str], folder: Path = CATALOG_DIR) -> list[Problem]:
    """Message ids the code uses that the English catalog lacks (run `companion i18n extract`)."""
    english = load(SOURCE_LANGUAGE, folder)["messages"]
    return [Problem(SOURCE_LANGUAGE, "missing", msgid, "found in the code but not in en.json")
            for msgid in sorted(set(found) - set(english))]


def catalog_problems(lang: str, folder: Path = CATALOG_DIR, keep: Iterable[str] = ()) -> list[Problem]:
    """What `lang`'s catalog lacks or gets wrong against en.json; `keep` lists ids that may stay English."""
    english = load(SOURCE_LANGUAGE, folder)["messages"]
    data = load(lang, folder)
    messages: dict[str, Any] = data.get("messages", {})
    needed = CATEGORIES.get(data.get("plural", "one_is_1"), ("other",))
    script = data.get("script", "Latn")
    allowed_same = set(keep)
    out: list[Problem] = []
    if data.get("plural") not in PLURAL_RULES:
        out.append(Problem(lang, "format", "", f"unknown plural rule {data.get('plural')!r}"))
    for msgid in sorted(set(messages) - set(english)):
        out.append(Problem(lang, "obsolete", msgid, "not an English message any more"))
    for msgid, source in sorted(english.items()):
        entry = messages.get(msgid)
        if entry is None:
            out.append(Problem(lang, "missing", msgid))
            continue
        want = placeholders(msgid)
        if isinstance(source, dict):
            if not isinstance(entry, dict):
                out.append(Problem(lang, "plural", msgid, f"needs forms {', '.join(needed)}"))
                continue
            lacking = [c for c in needed if not isinstance(entry.get(c), str)]
            if lacking:
                out.append(Problem(lang, "plural", msgid, f"no form for {', '.join(lacking)}"))
        for form in forms(entry):
            if not isinstance(form, str) or not form.strip():
                out.append(Problem(lang, "format", msgid, "an empty translation"))
                continue
            got = placeholders(form)
            # A plural form may leave out {count} ("one card" for 1); it may not invent or lose anything else.
            if got - want or (want - got) - ({"count"} if isinstance(source, dict) else set()):
                out.append(Problem(lang, "placeholders", msgid, f"has {sorted(got)}, English has {sorted(want)}"))
            if lang != SOURCE_LANGUAGE and msgid not in allowed_same and _untranslated(form, msgid, script):
                out.append(Problem(lang, "untranslated", msgid, f"{form!r} reads as English"))
    return out


def _untranslated(form: str, msgid: str, script: str) -> bool:
    """A form that is the English text, or (for a non-Latin script) has no letter of its script outside names."""
    bare = PLACEHOLDER.sub("", form)
    letters = [c for c in bare if c.isalpha()]
    if not letters:
        return False  # "{a} → {b}": nothing to translate
    if script == "Latn":
        return form == msgid
    return not any(script_of(c) == script for c in letters)


def all_problems(found: Iterable[str] | None = None, langs: Iterable[str] | None = None,
                 folder: Path = CATALOG_DIR, keep: dict[str, set[str]] | None = None) -> list[Problem]:
    out = source_problems(found, folder) if found is not None else []
    for lang in langs if langs is not None else available():
        if lang != SOURCE_LANGUAGE:
            out += catalog_problems(lang, folder, (keep or {}).get(lang, ()))
    return out
