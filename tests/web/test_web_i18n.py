"""The message catalogs: every page text is in the English source catalog, translations fit it, pages carry lang/dir."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import companion.i18n as i18n
from companion.i18n import PLURAL_RULES, Catalog, available, catalog, negotiate

STATIC = Path(i18n.__file__).resolve().parent.parent / "web" / "static"
CALL = re.compile(r'(?<![\w.])(t|tn)\(\s*"((?:[^"\\]|\\.)*)"')
PAGE_TEXT = re.compile(r"\{\{t:([^{}]+)\}\}")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def used_strings() -> tuple[set[str], set[str]]:
    singles: set[str] = set()
    plurals: set[str] = set()
    for path in STATIC.rglob("*.js"):
        for kind, text in CALL.findall(path.read_text(encoding="utf-8")):
            (plurals if kind == "tn" else singles).add(json.loads(f'"{text}"'))
    for path in STATIC.rglob("*.html"):
        singles |= set(PAGE_TEXT.findall(path.read_text(encoding="utf-8")))
    return singles, plurals


def test_every_page_text_is_in_the_english_catalog():
    singles, plurals = used_strings()
    messages = catalog("en").messages
    assert not (singles | plurals) - set(messages), "page texts missing from en.json"
    for msgid in plurals:
        assert isinstance(messages[msgid], dict) and "one" in messages[msgid] and "other" in messages[msgid]
    for msgid in singles:
        assert messages[msgid] == msgid, "the English catalog maps each source string to itself"


def test_no_page_text_is_written_outside_the_catalog():
    # Text nodes are built with h(...) from t()/tn()/words(); a bare English literal would escape translation.
    tags = "p|h1|h2|h3|button|label|legend|strong|span|small|li|a|option"
    # The attributes may hold one nested object (a style), so the pattern steps over one level of braces.
    attributes = r"\{(?:[^{}]|\{[^{}]*\})*\}"
    bare = re.compile(rf'\bh\("(?:{tags})",\s*{attributes},\s*"[A-Za-z]')
    for path in STATIC.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not bare.search(text), f"{path.name}: {bare.search(text).group(0)}"


@pytest.mark.parametrize("lang", available())
def test_each_catalog_fits_the_english_one(lang):
    source = catalog("en").messages
    data = json.loads((i18n.CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    assert data["lang"] == lang and data["dir"] in ("ltr", "rtl") and data["plural"] in PLURAL_RULES
    for msgid, translation in data["messages"].items():
        assert msgid in source, f"{lang}: {msgid!r} is not an English source string"
        forms = translation.values() if isinstance(translation, dict) else [translation]
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(msgid)) | {"count"}, \
                f"{lang}: {msgid!r} has a placeholder the English one lacks"
        if isinstance(translation, dict):
            assert "other" in translation


def test_plural_forms_follow_the_languages_rule():
    english = catalog("en")
    assert english.ngettext("{count} card", 1) == "1 card"
    assert english.ngettext("{count} card", 0) == "0 cards"
    assert english.ngettext("{count} card", 2) == "2 cards"
    icelandic = PLURAL_RULES["one_ends_in_1_not_11"]
    assert [icelandic(n) for n in (1, 11, 21, 101, 111, 2)] == ["one", "other", "one", "one", "other", "other"]
    bengali = PLURAL_RULES["one_is_0_or_1"]
    assert [bengali(n) for n in (0, 1, 2)] == ["one", "one", "other"]


def test_a_missing_translation_falls_back_to_english_and_keeps_placeholders():
    cat = Catalog("xx", "Test", messages={"Your turn": "Deine Runde"})
    assert cat.gettext("Your turn") == "Deine Runde"
    assert cat.gettext("Waiting for {names}", names="Ann") == "Waiting for Ann"
    assert cat.gettext("Waiting for {names}") == "Waiting for {names}"


@pytest.mark.parametrize(("requested", "header", "expected"), [
    (None, None, "en"),
    ("xx", "en-GB,en;q=0.9", "en"),
    (None, "fr-CH, fr;q=0.9, en;q=0.8", "en"),
])
def test_the_language_is_negotiated_from_the_choice_and_the_browser(requested, header, expected):
    assert negotiate(requested, header) == expected


@pytest.fixture
def sindhi(tmp_path, monkeypatch):
    """A right-to-left test catalog next to the English one (the real ones come with the languages issue)."""
    shutil.copy(i18n.CATALOG_DIR / "en.json", tmp_path / "en.json")
    (tmp_path / "sd.json").write_text(json.dumps({
        "lang": "sd", "name": "سنڌي", "dir": "rtl", "plural": "one_is_1",
        "messages": {"Table companion": "ٽيبل ساٿي", "Your turn": "توهان جو وارو"},
    }), encoding="utf-8")
    monkeypatch.setattr(i18n, "CATALOG_DIR", tmp_path)
    i18n.catalog.cache_clear()
    yield
    i18n.catalog.cache_clear()


def test_pages_carry_the_language_and_direction(client, new_session, sindhi):
    seated = new_session()
    page = client.get(f"/join/{seated.id}", params={"t": seated.tokens[0], "lang": "sd"}).text
    assert '<html lang="sd" dir="rtl">' in page and "ٽيبل ساٿي" in page
    catalog_json = re.search(r'<script type="application/json" id="catalog">(.*?)</script>', page, re.S).group(1)
    data = json.loads(catalog_json)
    assert data["messages"]["Your turn"] == "توهان جو وارو"
    assert data["messages"]["Undo"] == "Undo"  # untranslated texts fall back to English
    english = client.get(f"/join/{seated.id}", headers={"Accept-Language": "en-US"}).text
    assert '<html lang="en" dir="ltr">' in english
    assert '<html lang="sd" dir="rtl">' in client.get("/host", headers={"Accept-Language": "sd"}).text


def test_a_seats_language_set_by_the_host_picks_its_page_language(client, new_session, sindhi):
    seated = new_session()
    response = client.patch(f"/api/host/sessions/{seated.id}/seats/1", json={"token": seated.host, "lang": "sd"})
    assert response.status_code == 200
    assert 'lang="sd"' in client.get(f"/join/{seated.id}", params={"t": seated.tokens[1]}).text
    assert 'lang="en"' in client.get(f"/join/{seated.id}", params={"t": seated.tokens[0]}).text
    refused = client.patch(f"/api/host/sessions/{seated.id}/seats/1", json={"token": seated.host, "lang": "fr"})
    assert refused.status_code == 400 and "no catalog" in refused.json()["error"]


def test_the_pages_read_seats_in_log_arguments_from_the_same_lists_as_the_server():
    # common.js names the seats of a log line from the catalog the page embeds, never from a copy of its own.
    data = i18n.for_browser("sd")
    assert set(data["seat_args"]) == i18n.SEAT_ARGS and set(data["seat_list_args"]) == i18n.SEAT_LIST_ARGS
    script = (STATIC / "common.js").read_text(encoding="utf-8")
    assert "catalogData.seat_args" in script and "leader|" not in script
    # Log templates that name an offer's number read in words from the same list on every page and the display.
    assert data["shown_templates"] == i18n.SHOWN_TEMPLATES
    assert "catalogData.shown_templates" in script
    assert not any("withdrew offer" in p.read_text(encoding="utf-8") for p in STATIC.rglob("*.js"))
