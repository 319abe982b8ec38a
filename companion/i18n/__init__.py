"""Message catalogs: English source strings as ids, one JSON catalog per language, CLDR plural categories, digits."""

from __future__ import annotations

import dataclasses
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

# Decimal digits by their CLDR numbering-system name (the same names Intl.NumberFormat takes as `-u-nu-`).
DIGITS: dict[str, str] = {
    "latn": "0123456789",
    "beng": "০১২৩৪৫৬৭৮৯",
    "arabext": "۰۱۲۳۴۵۶۷۸۹",  # Extended Arabic-Indic: Sindhi, Urdu, Persian
    "arab": "٠١٢٣٤٥٦٧٨٩",
    "sinh": "෦෧෨෩෪෫෬෭෮෯",  # Sinhala Lith digits: historical, never the usual choice; listed so they are recognised
}
WESTERN = "latn"
_ANY_DIGIT = {d: western for system in DIGITS.values() for d, western in zip(system, DIGITS[WESTERN])}
# Per digit system, `str.translate`'s table from every known digit to that system's (one C call a text: the
# ticker and the board jobs are digit-rewritten in every view, and a character-by-character rewrite of each
# non-ASCII line was a sixth of a fan-out's time).
_TO_DIGITS = {system: {ord(c): target[int(w)] for c, w in _ANY_DIGIT.items()} for system, target in DIGITS.items()}


def N_(text: str) -> str:  # the gettext name every extractor knows
    """Marks a string as a message id where it is written (a table of names); it is translated where it is shown."""
    return text


def to_digits(text: str, system: str) -> str:
    """`text` with every decimal digit (of any known system) written in `system`'s digits."""
    if system == WESTERN and text.isascii():
        return text  # nothing to rewrite (the common case: every label the display draws asks)
    return text.translate(_TO_DIGITS.get(system, _TO_DIGITS[WESTERN]))


@dataclass(frozen=True)
class Catalog:
    """The translations of one language; a missing message falls back to the English source string."""

    lang: str
    name: str
    dir: str = "ltr"
    plural: str = "one_is_1"
    messages: dict[str, Any] = field(default_factory=dict)
    digits: str = WESTERN  # the digits players of this language expect (a CLDR numbering system)
    script: str = "Latn"  # ISO 15924 code of the language's script (for fonts and text shaping)
    english_name: str = ""
    western_digits: bool = False  # True when the table asked for 0-9 instead of the language's own digits

    @property
    def shown_digits(self) -> str:
        return WESTERN if self.western_digits else self.digits

    def with_western_digits(self, western: bool = True) -> Catalog:
        """The same catalog writing numbers with 0-9 (the option for players who prefer them)."""
        return dataclasses.replace(self, western_digits=western)

    def plural_category(self, n: int) -> str:
        return PLURAL_RULES[self.plural](abs(int(n)))

    def number(self, n: int | float) -> str:
        """A number as this language writes it."""
        if isinstance(n, float) and not n.is_integer():
            text = f"{n:.1f}"
        else:
            text = str(int(n))
        return to_digits(text, self.shown_digits)

    def lookup(self, msgid: str, count: int | None = None) -> str:
        """The translated text of `msgid` (the plural form for `count` when the entry has forms), unformatted."""
        entry = self.messages.get(msgid, msgid)
        if isinstance(entry, dict):
            if count is not None:
                text = entry.get(self.plural_category(count)) or entry.get("other")
            else:
                text = entry.get("other")
            return text if isinstance(text, str) else msgid
        return entry if isinstance(entry, str) else msgid

    def gettext(self, msgid: str, **args: Any) -> str:
        """`msgid` translated and formatted; a `count` argument picks the plural form; a missing argument stays."""
        count = args.get("count")
        plural = count if isinstance(count, int) and not isinstance(count, bool) else None
        return self._fill(self.lookup(msgid, plural), args)

    def ngettext(self, msgid: str, n: int, **args: Any) -> str:
        """The plural form of `msgid` for `n` (also passed as `{count}`)."""
        args.setdefault("count", n)
        return self._fill(self.lookup(msgid, n), args)

    def _fill(self, text: str, args: dict[str, Any]) -> str:
        # Digits written in the template follow the table's choice too ("Step 3", "plants 3-6").
        text = to_digits(text, self.shown_digits)
        shown = {k: self.number(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                 for k, v in args.items()}
        try:
            return text.format_map(_Lenient(shown)) if shown else text
        except (ValueError, IndexError, AttributeError):
            # A format spec for a number ("{share:.0%}") needs the number itself.
            return to_digits(_format(text, args), self.shown_digits)

    def to_json(self) -> dict[str, Any]:
        return {"lang": self.lang, "name": self.name, "dir": self.dir, "plural": self.plural,
                "digits": self.digits, "script": self.script, "messages": self.messages}


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
    digits = data.get("digits", WESTERN)
    if digits not in DIGITS:
        raise ValueError(f"{path.name}: unknown digits {digits!r} (known: {', '.join(DIGITS)})")
    return Catalog(data["lang"], data["name"], data.get("dir", "ltr"), plural, data.get("messages", {}),
                   digits=digits, script=data.get("script", "Latn"), english_name=data.get("english_name", ""))


def for_browser(lang: str) -> dict[str, Any]:
    """A catalog for a page: the language's messages over the English ones, so nothing is ever missing."""
    own = catalog(lang)
    source = catalog(SOURCE_LANGUAGE)
    # The languages there are, each in its own name, so a phone can switch.
    languages = [{"lang": code, "name": catalog(code).name} for code in available()]
    # The log arguments that name seats and the templates shown in words come from here, so the pages and the
    # display read logs alike.
    return {**own.to_json(), "languages": languages, "messages": {**source.messages, **own.messages},
            "seat_args": sorted(SEAT_ARGS), "seat_list_args": sorted(SEAT_LIST_ARGS),
            "shown_templates": SHOWN_TEMPLATES}


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


def words(name: str) -> str:
    """A machine name as the pages show it before translation: "play_card" -> "Play card" (the message id)."""
    text = str(name).replace("_", " ")
    return text[:1].upper() + text[1:]


# Log arguments that name a seat (the ticker shows the player's name) or list seats (a turn order).
SEAT_ARGS = frozenset({
    "player", "seat", "who", "winner", "target", "opener", "buyer", "bidder", "giver", "receiver", "partner",
    "active", "from_player", "to_player", "offerer", "other", "owner", "loser", "leader",
})
SEAT_LIST_ARGS = frozenset({"order", "winners", "players", "seats"})

# Log templates that name an internal number (a Bohnanza offer's id): what players read instead, in words. The
# log keeps the number (replay needs it); every page, the display and the CLI show these.
SHOWN_TEMPLATES: dict[str, str] = {
    "{player} withdrew offer {offer}": N_("{player} withdrew an offer"),
    "{player} refused offer {offer} from {partner}": N_("{player} refused the offer of {partner}"),
    "{player} refused offer {countered} and countered": N_("{player} refused an offer and countered"),
    "{player} accepted offer {offer}: {player} got {give}, {partner} got {want}":
        N_("{player} accepted the offer of {partner}: {player} got {give}, {partner} got {want}"),
    "{player} offered {partner} a gift of {give} (offer {offer})": N_("{player} offered {partner} a gift of {give}"),
    "{player} asked {partner} for {want} as a gift (offer {offer})":
        N_("{player} asked {partner} for {want} as a gift"),
    "{player} offered {partner} {give} for {want} (offer {offer})": N_("{player} offered {partner} {give} for {want}"),
}


def shown_template(template: str) -> str:
    """The template players read for a log template (the same one, unless it names an internal number)."""
    return SHOWN_TEMPLATES.get(template, template)


def log_line(template: str, args: dict[str, Any], cat: Catalog, names: list[str] | tuple[str, ...] = (),
             game: str = "") -> str:
    """One ticker line in `cat`'s language: seats become the players' names, words are translated, digits local."""

    def name(seat: Any) -> str:
        if seat == "table":
            return cat.gettext("the table")
        if seat == "host":
            return cat.gettext("the host")
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return cat.gettext("Player {n}", n=seat + 1) if isinstance(seat, int) else str(seat)

    from companion.i18n.logwords import arg_words  # the game's own words (beans, cards) as the pages have them

    shown: dict[str, Any] = {}
    for key, value in args.items():
        is_seat = (isinstance(value, int) and not isinstance(value, bool)) or value in ("host", "table")
        own = arg_words(game, key, value, cat.gettext) if game else None
        if own is not None:
            shown[key] = own
        elif key in SEAT_ARGS and is_seat:
            shown[key] = name(value)
        elif key in SEAT_LIST_ARGS and isinstance(value, list | tuple):
            shown[key] = ", ".join(name(v) if isinstance(v, int) else cat.gettext(str(v)) for v in value)
        elif isinstance(value, list | tuple):
            shown[key] = ", ".join(cat.number(v) if isinstance(v, int | float) else cat.gettext(str(v)) for v in value)
        elif isinstance(value, str):
            shown[key] = cat.gettext(value)
        else:
            shown[key] = value
    return cat.gettext(shown_template(template), **shown)


def cli_text(lang: str | None = None, western_digits: bool = False) -> Callable[..., str]:
    """The gettext of the command line's table-facing output: `--lang`, else $COMPANION_LANG, else English."""
    import os

    chosen = negotiate(lang or os.environ.get("COMPANION_LANG") or None)
    return catalog(chosen).with_western_digits(western_digits).gettext
