"""Every catalog covers every message with the English placeholders and the language's plural forms and terms."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import PLAYERS_LANGUAGES

import companion.i18n as i18n
from companion.i18n import PLURAL_RULES, catalog, to_digits
from companion.i18n.check import catalog_problems, source_problems
from companion.i18n.extract import scan_python, scan_web
from companion.i18n.glossary import glossary_problems, kept_as_english, load_glossary


def test_the_players_languages_have_catalogs(languages):
    assert set(PLAYERS_LANGUAGES) <= set(languages)
    assert catalog("sd").dir == "rtl" and all(catalog(lang).dir == "ltr" for lang in ("bn", "is", "si", "en"))
    assert {lang: catalog(lang).script for lang in PLAYERS_LANGUAGES} == {
        "bn": "Beng", "sd": "Arab", "is": "Latn", "si": "Sinh"}


def test_the_english_catalog_holds_every_message_the_code_uses(extraction):
    # A new _(), msg(), t() ... anywhere fails here until `companion i18n extract` adds it (then it is translated).
    assert [str(p) for p in source_problems(extraction.ids)] == []


@pytest.mark.parametrize("lang", PLAYERS_LANGUAGES)
def test_every_message_is_translated_and_no_translation_is_left_over(lang):
    problems = catalog_problems(lang, keep=kept_as_english(lang))
    assert [str(p) for p in problems if p.kind in ("missing", "obsolete", "format")] == []


@pytest.mark.parametrize("lang", PLAYERS_LANGUAGES)
def test_placeholders_match_the_english_source(lang):
    problems = catalog_problems(lang, keep=kept_as_english(lang))
    assert [str(p) for p in problems if p.kind == "placeholders"] == []


@pytest.mark.parametrize("lang", PLAYERS_LANGUAGES)
def test_every_plural_message_has_the_forms_its_language_needs(lang):
    problems = catalog_problems(lang, keep=kept_as_english(lang))
    assert [str(p) for p in problems if p.kind == "plural"] == []


@pytest.mark.parametrize("lang", PLAYERS_LANGUAGES)
def test_translations_are_not_english_copies(lang):
    # Non-Latin scripts: every translation has letters of its script; Icelandic: none equals the English but names.
    problems = catalog_problems(lang, keep=kept_as_english(lang))
    assert [str(p) for p in problems if p.kind == "untranslated"] == []


def test_game_terms_are_the_glossarys_words(extraction, languages):
    assert [str(p) for p in glossary_problems(extraction, languages)] == []


@pytest.mark.parametrize("lang", PLAYERS_LANGUAGES)
def test_each_glossary_covers_the_three_games_and_says_where_its_words_come_from(lang):
    glossary = load_glossary(lang)
    assert set(glossary["games"]) == {"power_grid", "bohnanza", "shifting_stones"}
    from_rules = {game for game, part in glossary["games"].items()
                  if all(t["from"] == "rules text" for t in part["terms"])}
    # The rules texts the players have: Power Grid in Bengali, Sindhi and Icelandic, Bohnanza in Bengali,
    # Shifting Stones in Sinhala. Every other game's terms were chosen, and the glossary says so.
    expected = {"bn": {"power_grid", "bohnanza"}, "sd": {"power_grid"}, "is": {"power_grid"},
                "si": {"shifting_stones"}}[lang]
    assert from_rules == expected
    for game, part in glossary["games"].items():
        assert part["source"] and all(t["word"] and t["forms"] and t["pattern"] for t in part["terms"]), game


def test_plural_forms_follow_each_languages_rule():
    card = "{count} card"
    assert catalog("en").ngettext(card, 1) == "1 card" and catalog("en").ngettext(card, 0) == "0 cards"
    icelandic = catalog("is")
    assert icelandic.ngettext("{count} city", 21) == "21 borg" and icelandic.ngettext("{count} city", 11) == "11 borgir"
    sindhi = catalog("sd").with_western_digits()
    assert sindhi.ngettext("{count} house left", 1).endswith("بچيو")
    assert sindhi.ngettext("{count} house left", 2).endswith("بچيا")
    # A {count} argument picks the form for templates too (a log line is not called with ngettext).
    assert catalog("en").gettext("{count} resources went back to the supply", count=1).startswith("1 resource went")
    assert [PLURAL_RULES[catalog(lang).plural](0) for lang in ("bn", "si", "sd", "is")] == \
        ["one", "one", "other", "other"]


def test_numbers_are_written_in_the_digits_players_expect_with_an_option_for_western_digits():
    bid = "{player} bid {amount} for plant {plant}"
    assert catalog("bn").gettext(bid, player="Ada", amount=15, plant=13).count("১৩") == 1
    assert "۱۵" in catalog("sd").gettext(bid, player="Ada", amount=15, plant=13)
    assert "15" in catalog("is").gettext(bid, player="Ada", amount=15, plant=13)
    assert "15" in catalog("si").gettext(bid, player="Ada", amount=15, plant=13)
    western = catalog("bn").with_western_digits().gettext(bid, player="Ada", amount=15, plant=13)
    assert "15" in western and "13" in western and not set(western) & set("০১২৩৪৫৬৭৮৯")
    # Digits written in a template follow too ("Step 3").
    assert catalog("sd").gettext("Step 3").endswith("۳") and to_digits("৩-৬", "latn") == "3-6"


def test_the_extraction_finds_a_new_string_wherever_it_is_written(tmp_path):
    package = tmp_path / "companion" / "games" / "newgame"
    package.mkdir(parents=True)
    (package / "rules.py").write_text(
        'from companion.core.log import msg\n'
        'def f(x):\n'
        '    _("A brand new label")\n'
        '    N_("A name in a table")\n'
        '    raise IllegalAction("a fixed refusal" if x else "another one")\n'
        '    return msg("{player} did something new", player=0), ngettext("{count} new thing", 2)\n'
        'def g(x):\n'
        '    raise IllegalAction(f"an f-string {x}")\n', encoding="utf-8")
    static = tmp_path / "static"
    static.mkdir()
    (static / "page.js").write_text('h("p", {}, t("A page text")), tn(\'{count} tile\', n);', encoding="utf-8")
    (static / "page.html").write_text("<p>{{t:A template text}}</p>", encoding="utf-8")
    found, unmarked = scan_python([package / "rules.py"], root=tmp_path)
    assert set(found) == {"A brand new label", "A name in a table", "a fixed refusal", "another one",
                          "{player} did something new", "{count} new thing"}
    assert found["{count} new thing"].plural and not found["A brand new label"].plural
    assert unmarked == ["companion/games/newgame/rules.py:8"]
    web = scan_web(static, root=tmp_path)
    assert set(web) == {"A page text", "{count} tile", "A template text"} and web["{count} tile"].plural


def test_the_extraction_finds_refusal_templates_of_every_refusal_class(tmp_path):
    """A refusal raised with a literal template (with or without params), by any CompanionError subclass defined
    anywhere (a game's own, a subclass of a subclass), and the controller's notes are message ids."""
    package = tmp_path / "companion" / "games" / "newgame"
    package.mkdir(parents=True)
    (package / "errors.py").write_text(
        'from companion.core.errors import IllegalAction, NotYourTurn\n'
        'class TooEarly(IllegalAction):\n'
        '    code = "too_early"\n'
        'class WayTooEarly(TooEarly):\n'
        '    pass\n', encoding="utf-8")
    (package / "rules.py").write_text(
        'def f(x, seat):\n'
        '    if x:\n'
        '        raise NotYourTurn("it is {player}\'s turn", player=seat).worded(f"it is seat {seat}\'s turn")\n'
        '    if seat:\n'
        '        raise WayTooEarly("plant {plant} comes later", plant=x)\n'
        '    raise StaleState("the game has moved on")\n'
        'def g(n):\n'
        '    note("the {cell} stone is picked", 0, cell="top left")\n'
        '    raise TooEarly("{count} cards are too few", count=n)\n', encoding="utf-8")
    found, unmarked = scan_python([package / "errors.py", package / "rules.py"], root=tmp_path)
    assert set(found) == {"it is {player}'s turn", "plant {plant} comes later", "the game has moved on",
                          "the {cell} stone is picked", "{count} cards are too few"}
    assert found["{count} cards are too few"].plural and not unmarked


def test_the_check_names_a_missing_translation_a_lost_placeholder_and_an_english_copy(tmp_path, monkeypatch):
    for lang in ("en", "bn"):
        shutil.copy(i18n.CATALOG_DIR / f"{lang}.json", tmp_path / f"{lang}.json")
    data = json.loads((tmp_path / "bn.json").read_text(encoding="utf-8"))
    del data["messages"]["Your turn"]
    data["messages"]["{player} passed on plant {plant}"] = "{player} পাস করেছেন"
    data["messages"]["Undo"] = "Undo"
    data["messages"]["{count} card"] = "{count}টি কার্ড"
    (tmp_path / "bn.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    problems = {(p.kind, p.msgid) for p in catalog_problems("bn", tmp_path)}
    assert problems == {("missing", "Your turn"), ("placeholders", "{player} passed on plant {plant}"),
                        ("untranslated", "Undo"), ("plural", "{count} card")}


def test_extract_keeps_the_plural_forms_of_a_message_whose_count_picks_them():
    """The display's `_("{count} coin · {hand} in hand", count=…)` is found as plain text; rewriting en.json must
    keep its English forms ("1 coin", "2 coins"), so that `companion i18n extract` on an extracted catalog changes
    nothing."""
    from companion.i18n.cli import english_entries
    from companion.i18n.extract import Found

    forms = {"one": "{count} coin · {hand} in hand", "other": "{count} coins · {hand} in hand"}
    current = {"{count} coin · {hand} in hand": forms, "Deck: {count}": "Deck: {count}", "Ready": {"one": "x"}}
    found = {"{count} coin · {hand} in hand": Found(), "Deck: {count}": Found(), "Ready": Found()}
    after = english_entries(found, current)
    assert after["{count} coin · {hand} in hand"] == forms
    assert after["Deck: {count}"] == "Deck: {count}"
    assert after["Ready"] == "Ready"  # no {count}: nothing can pick a form, so the id is plain text
    assert english_entries(found, after) == after
