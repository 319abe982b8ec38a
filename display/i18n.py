"""The display's message catalog: every text on screen goes through `_()` so translations can be swapped in."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

# English source strings are the message ids. The project's catalogs (companion.i18n) are used when they load;
# translations added here (add_catalog) are a fallback for languages the project has no catalog of.
_CATALOGS: dict[str, dict[str, str]] = {"en": {}}
_language = "en"
_western_digits = False
_notice: str | None = None
_project: dict[tuple[str, bool], Callable[..., str] | None] = {}
# Sets that note every message id looked up (the i18n check records what the display shows).
_recorders: list[set[str]] = []


def N_(text: str) -> str:  # the gettext name every extractor knows
    """Marks a message id where it is written (a table of names); `_()` translates it where it is shown."""
    return text


def set_language(lang: str, western_digits: bool | None = None) -> None:
    """Use `lang` from now on (unknown languages fall back to the English source strings); optionally 0-9 digits.

    When no font of the language's script is installed the display stays in English and says so (`notice()`).
    """
    global _language, _western_digits, _notice
    _language = lang
    _notice = None
    _SETTINGS.clear()
    if western_digits is not None:
        _western_digits = western_digits
    try:
        from companion.i18n import available, catalog, fonts

        if lang in available():
            cat = catalog(lang)
            if cat.script != "Latn" and fonts.font_for(cat.script) is None:
                _notice = fonts.missing_font_message(cat.script, cat.english_name or cat.name)
                _language = "en"
    except Exception:  # a broken catalog: English, as above
        _language = "en"


def notice() -> str | None:
    """A message for the table when its language could not be shown (its font is missing), else None."""
    return _notice


def add_catalog(lang: str, messages: dict[str, str]) -> None:
    """Register (or extend) the translations of one language."""
    _CATALOGS.setdefault(lang, {}).update(messages)


def language() -> str:
    return _language


def western_digits() -> bool:
    return _western_digits


_SETTINGS: dict[tuple[str, bool], tuple[str, str, str]] = {}


def text_settings() -> tuple[str, str, str]:
    """(script, direction, digits) of the display's language: how its text is shaped and its numbers written."""
    # Asked for by every text drawn: worked out once per language (it reads the catalogs folder).
    key = (_language, _western_digits)
    found = _SETTINGS.get(key)
    if found is None:
        found = _SETTINGS[key] = _text_settings()
    return found


def _text_settings() -> tuple[str, str, str]:
    try:
        from companion.i18n import available, catalog

        if _language in available():
            cat = catalog(_language)
            return cat.script, cat.dir, "latn" if _western_digits else cat.digits
    except Exception:  # a broken catalog: the display still draws, as English
        pass
    return "Latn", "ltr", "latn"


@contextlib.contextmanager
def recording(seen: set[str]) -> Iterator[set[str]]:
    """Note in `seen` every message id looked up inside the block."""
    _recorders.append(seen)
    try:
        yield seen
    finally:
        _recorders.remove(seen)


def _project_gettext(lang: str) -> Callable[..., str] | None:
    key = (lang, _western_digits)
    if key not in _project:
        try:
            from companion.i18n import catalog

            _project[key] = catalog(lang).with_western_digits(_western_digits).gettext
        except Exception:  # no catalog yet, or a broken one: the display still shows the English source
            _project[key] = None
    return _project[key]


def _(text: str, /, **args: Any) -> str:
    """The translation of `text`, formatted with `args` (a missing argument leaves its placeholder)."""
    for seen in _recorders:
        seen.add(text)
    local = _CATALOGS.get(_language, {})
    if text not in local:
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
