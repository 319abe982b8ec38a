"""`companion i18n`: extract the message ids, check the catalogs, list what a translator still has to do, fonts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.i18n import CATALOG_DIR, SOURCE_LANGUAGE, available, catalog


def register(sub: Any) -> None:
    p = sub.add_parser(
        "i18n",
        help="message catalogs: extract the English source, check the translations, fonts",
        description="Every text the phones, the host page, the display, the log and the table-facing command line "
        "show is an English message id translated through companion/i18n/catalogs/<lang>.json.",
    )
    own = p.add_subparsers(dest="i18n_command", metavar="ACTION")

    q = own.add_parser("extract", help="find every message id and rewrite the English catalog (en.json)",
                       description="Scans the code, the games' declared words and a few random games of each game "
                       "(views, logs, the table display), then writes en.json; ids nobody uses any more are "
                       "dropped from every catalog.")
    q.add_argument("--quick", action="store_true", help="play less (one seed, fewer steps)")
    q.add_argument("--dry-run", action="store_true", help="only report what would change")
    q.set_defaults(func=cmd_extract)

    q = own.add_parser("check", help="every catalog translates every message, with the same placeholders",
                       description="Exits non-zero and lists the problems: messages the code uses that en.json "
                       "lacks, missing or obsolete translations, placeholders that differ from the English, missing "
                       "plural forms, translations that are still English.")
    q.add_argument("--lang", action="append", help="only this language (repeatable)")
    q.add_argument("--quick", action="store_true", help="play less while looking for message ids")
    q.add_argument("--no-play", action="store_true", help="only the code and the games' declared words")
    q.set_defaults(func=cmd_check)

    q = own.add_parser("missing", help="the messages a language still lacks, as JSON to fill in")
    q.add_argument("lang")
    q.set_defaults(func=cmd_missing)

    q = own.add_parser("fonts", help="the font each language is drawn with, and whether it covers its catalog")
    q.set_defaults(func=cmd_fonts)

    q = own.add_parser("languages", help="the languages there are catalogs for")
    q.set_defaults(func=cmd_languages)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _extraction(quick: bool, play: bool = True) -> Any:
    from companion.i18n.extract import QUICK, PlayPlan, extract

    return extract(play=play, plan=QUICK if quick else PlayPlan())


def english_entries(found: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """The English catalog's messages for the ids found: each id maps to itself, or to its plural forms.

    An id found as plain text (`_("{count} coin · {hand} in hand", count=…)` on the display) keeps the plural forms
    the catalog already gives it as long as it has a `{count}`: that argument still picks the form at run time.
    """
    out: dict[str, Any] = {}
    for msgid in sorted(found, key=lambda m: (m.lower(), m)):
        old = current.get(msgid)
        if isinstance(old, dict) and "{count}" in msgid:
            out[msgid] = old
        elif found[msgid].plural:
            out[msgid] = old if isinstance(old, dict) else {"one": msgid, "other": msgid}
        else:
            out[msgid] = msgid
    return out


def write_catalog(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def cmd_extract(args: argparse.Namespace) -> int:
    extraction = _extraction(args.quick)
    path = CATALOG_DIR / f"{SOURCE_LANGUAGE}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    before = data["messages"]
    after = english_entries(extraction.messages, before)
    added = sorted(set(after) - set(before))
    dropped = sorted(set(before) - set(after))
    for msgid in added:
        print(f"new: {msgid!r}  ({', '.join(sorted(extraction.messages[msgid].where)[:2])})")
    for msgid in dropped:
        print(f"unused: {msgid!r}")
    print(f"{len(after)} messages: {len(added)} new, {len(dropped)} no longer used; "
          f"{len(extraction.unmarked)} refusals are f-strings (shown in English)")
    if args.dry_run:
        return 0
    data["messages"] = after
    write_catalog(path, data)
    for lang in available():
        if lang == SOURCE_LANGUAGE:
            continue
        other_path = CATALOG_DIR / f"{lang}.json"
        other = json.loads(other_path.read_text(encoding="utf-8"))
        kept = {k: v for k, v in other.get("messages", {}).items() if k in after}
        if len(kept) != len(other.get("messages", {})):
            other["messages"] = dict(sorted(kept.items(), key=lambda kv: (kv[0].lower(), kv[0])))
            write_catalog(other_path, other)
    catalog.cache_clear()
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from companion.i18n.check import all_problems
    from companion.i18n.glossary import glossary_problems, kept_as_english

    extraction = _extraction(args.quick, play=not args.no_play)
    langs = args.lang or available()
    problems = all_problems(extraction.ids, langs, keep={lang: kept_as_english(lang) for lang in langs})
    problems += glossary_problems(extraction, langs)
    for problem in problems:
        print(problem)
    counts = {lang: sum(1 for p in problems if p.lang == lang) for lang in [SOURCE_LANGUAGE, *langs]}
    print("; ".join(f"{lang}: {n} problem(s)" for lang, n in counts.items()), file=sys.stderr)
    return 1 if problems else 0


def cmd_missing(args: argparse.Namespace) -> int:
    english = catalog(SOURCE_LANGUAGE).messages
    own = catalog(args.lang).messages if args.lang in available() else {}
    todo = {k: v for k, v in english.items() if k not in own}
    print(json.dumps(todo, ensure_ascii=False, indent=1))
    return 0


def cmd_fonts(args: argparse.Namespace) -> int:
    from companion.i18n import fonts

    for lang in available():
        cat = catalog(lang)
        text = "".join(f for entry in cat.messages.values() for f in
                       (entry.values() if isinstance(entry, dict) else [entry]) if isinstance(f, str))
        scripts = [cat.script, "Latn"] if cat.script != "Latn" else ["Latn"]
        chain = [f for f in (fonts.font_for(script) for script in scripts) if f is not None]
        missing = fonts.missing_glyphs(text, [f.path for f in chain])
        names = " + ".join(f"{f.choice.family} ({f.path})" for f in chain) or "none installed"
        verdict = "covers every character" if not missing else f"lacks {''.join(sorted(missing))!r}"
        print(f"{lang} ({cat.name}, {cat.script}, {cat.dir}, digits {cat.digits}): {names}: {verdict}")
        if cat.script != "Latn" and fonts.font_for(cat.script) is None:
            print(f"    {fonts.missing_font_message(cat.script, cat.english_name or cat.name)}")
    return 0


def cmd_languages(args: argparse.Namespace) -> int:
    for lang in available():
        cat = catalog(lang)
        print(f"{lang}\t{cat.name}\t{cat.english_name or cat.name}\t{cat.dir}\tdigits {cat.digits}")
    return 0
