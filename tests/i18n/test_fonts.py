"""Fonts for the five scripts come from the system's font packages and cover every character the catalogs use."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PLAYERS_LANGUAGES

from companion.i18n import DIGITS, catalog, fonts, to_digits
from display.render.widgets import REGULAR

ROOT = Path(__file__).resolve().parents[2]
SINDHI_LETTERS = "اآبٻڀتٿٺٽثپجڄڃچڇحخدڌڏڊڍذرڙزسشصضطظعغفڦقڪکگڳڱلمنڻوهھءيۍئ۾"


def catalog_text(lang: str) -> str:
    cat = catalog(lang)
    forms = [f for entry in cat.messages.values() for f in (entry.values() if isinstance(entry, dict) else [entry])]
    text = "".join(forms)
    # Numbers are shown in the language's digits, or 0-9 when a player asks for them.
    return text + to_digits("0123456789", cat.digits) + DIGITS["latn"]


@pytest.mark.parametrize("lang", PLAYERS_LANGUAGES)
def test_each_catalog_is_covered_by_its_scripts_font_and_the_latin_one(lang):
    cat = catalog(lang)
    script = fonts.font_for(cat.script) if cat.script != "Latn" else None
    if cat.script != "Latn":
        assert script is not None, fonts.missing_font_message(cat.script, cat.english_name)
    chain = [p for p in (script.path if script else None, REGULAR) if p is not None]
    assert fonts.missing_glyphs(catalog_text(lang), chain) == set()
    # The pages ask for the script's font, then Noto Sans, then DejaVu Sans (arrows and other symbols).
    noto = fonts.font_for("Latn", families=["Noto Sans"])
    dejavu = fonts.font_for("Latn", families=["DejaVu Sans"])
    assert noto is not None and dejavu is not None
    page_chain = [p for p in (script.path if script else None, noto.path, dejavu.path) if p is not None]
    assert fonts.missing_glyphs(catalog_text(lang), page_chain) == set()


def test_noto_naskh_arabic_has_every_sindhi_letter_and_the_extended_arabic_indic_digits():
    naskh = fonts.font_for("Arab")
    assert naskh is not None and naskh.choice.family == "Noto Naskh Arabic"
    assert fonts.missing_glyphs(SINDHI_LETTERS + DIGITS["arabext"], [naskh.path]) == set()


def test_the_script_fonts_are_installed_packages_not_files_in_the_repository():
    for script in ("Beng", "Arab", "Sinh"):
        found = fonts.font_for(script)
        assert found is not None and found.choice.package == "fonts-noto-core"
        assert ROOT not in found.path.resolve().parents
    assert not list((ROOT / "companion").rglob("*.ttf")) and not list((ROOT / "companion").rglob("*.otf"))


def test_the_cmap_reader_tells_a_covered_letter_from_tofu():
    bengali = fonts.font_for("Beng").path
    assert fonts.missing_glyphs("কখগ", [bengali]) == set()
    assert fonts.missing_glyphs("কA", [bengali]) == {"A"}
    assert fonts.missing_glyphs("ক\u200d ", [bengali]) == set()  # a joiner and a space need no glyph of their own
