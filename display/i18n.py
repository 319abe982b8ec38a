"""The display's message catalog: every text on screen goes through `_()` so translations can be swapped in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# English source strings are the message ids. The project's catalogs (companion.i18n) are used when they load;
# translations added here (add_catalog) are a fallback for languages the project has no catalog of.
_CATALOGS: dict[str, dict[str, str]] = {"en": {}}
_language = "en"
_project: dict[str, Callable[..., str] | None] = {}


def set_language(lang: str) -> None:
    """Use `lang` from now on (unknown languages fall back to the English source strings)."""
    global _language
    _language = lang


def add_catalog(lang: str, messages: dict[str, str]) -> None:
    """Register (or extend) the translations of one language."""
    _CATALOGS.setdefault(lang, {}).update(messages)


def language() -> str:
    return _language


def _project_gettext(lang: str) -> Callable[..., str] | None:
    if lang not in _project:
        try:
            from companion.i18n import catalog

            _project[lang] = catalog(lang).gettext
        except Exception:  # no catalog yet, or a broken one: the display still shows the English source
            _project[lang] = None
    return _project[lang]


def _(text: str, /, **args: Any) -> str:
    """The translation of `text`, formatted with `args` (a missing argument leaves its placeholder)."""
    local = _CATALOGS.get(_language, {})
    if text not in local and _language != "en":
        project = _project_gettext(_language)
        if project is not None:
            return project(text, **args)
    translated = local.get(text, text)
    if not args:
        return translated
    try:
        return translated.format_map(_Lenient(args))
    except (ValueError, IndexError, AttributeError):
        return translated


class _Lenient(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
