"""The table display in each language: shaped text in the script's own font, right to left, no tofu, no overflow."""

from __future__ import annotations

import pygame
import pytest
from conftest import PLAYERS_LANGUAGES

from companion.i18n import catalog, fonts, to_digits
from display import i18n as display_i18n
from display.app import render_image
from display.offline import play
from display.render.scripttext import _MIRROR, ShapedFont, style_for
from display.render.widgets import BOLD, REGULAR

# Each game's main screen (a few moves in) and one game's final summary, at the design size and the 800×480 touch
# screen; a modest number of seeds keeps the folder quick.
MAIN_SCREENS = (("power_grid", 4, 2, 40), ("bohnanza", 4, 3, 30), ("shifting_stones", 3, 4, 25),
                ("power_grid", 3, 2, None))
SIZES = ((1280, 720), (800, 480))


@pytest.fixture
def language():
    """Sets the display's language for one test and puts English back afterwards."""

    def use(lang: str, western_digits: bool = False) -> None:
        display_i18n.set_language(lang, western_digits)

    yield use
    display_i18n.set_language("en", False)


def fonts_of(style) -> list:
    return [p for p in (style.regular, style.bold, style.latin_regular, style.latin_bold) if p is not None]


@pytest.mark.parametrize("lang", ["en", *PLAYERS_LANGUAGES])
def test_each_games_main_screen_renders_without_tofu_or_overflow(lang, language, artifacts):
    language(lang)
    for game, players, seed, steps in MAIN_SCREENS:
        model = play(game, players, seed, steps)
        for size in SIZES if steps is not None else SIZES[:1]:
            surface, screen = render_image(model, size)
            painter = screen.painter
            assert [o.text for o in painter.overflows] == [], (game, size)
            style = painter.style
            shown = "".join(to_digits(t, style.digits) if "://" not in t else t for t in painter.drawn)
            assert fonts.missing_glyphs(shown, fonts_of(style)) == set(), (game, size)
            where = "summary" if steps is None else "main"
            pygame.image.save(surface, str(artifacts / f"i18n_display_{game}_{where}_{lang}_{size[0]}x{size[1]}.png"))
        # The screen is in the language: its own words are drawn, not the English ones.
        if lang != "en":
            assert catalog(lang).gettext("Now:") in painter.drawn or steps is None


@pytest.mark.parametrize("lang", ["bn", "sd", "si"])
def test_a_script_is_drawn_in_its_own_font_with_its_script_and_direction(lang, language):
    language(lang)
    cat = catalog(lang)
    model = play("shifting_stones", 2, 1, 5)
    _surface, screen = render_image(model, (1280, 720))
    font = screen.painter.font(20)
    assert isinstance(font, ShapedFont) and font.script is not None
    assert screen.painter.style.script == cat.script and screen.painter.style.direction == cat.dir
    assert fonts.font_for(cat.script).choice.family in {c.family for c in fonts.SCRIPT_FONTS[cat.script]}


def test_the_wheels_sdl_ttf_shapes_with_harfbuzz():
    # Arabic letters join when shaped: four behs in a row are narrower than four isolated ones.
    path = fonts.font_for("Arab").path
    font = pygame.font.Font(str(path), 40)
    isolated = font.size("ب")[0] * 4
    font.set_script("Arab")
    font.set_direction(pygame.DIRECTION_RTL)
    assert font.size("بببب")[0] < isolated * 0.8


def test_right_to_left_text_reads_from_the_right_with_names_and_numbers_left_to_right():
    style = style_for("Arab", "rtl", "arabext", REGULAR, BOLD)
    font = ShapedFont(style, 24)
    runs = font._visual_order(font.runs("اليڪٽرو Ada 12"))
    texts = [r.text for r in runs]
    # The name and the number after it are one left-to-right island (Unicode's rule W7): visually from the left
    # "Ada", then the number in Sindhi digits still reading 1 then 2, then the Arabic word at the right.
    assert [t.strip() for t in texts] == ["Ada", "۱۲", "اليڪٽرو"]
    assert [r.level for r in runs] == [2, 2, 1]
    # Brackets around a name in right-to-left text are mirrored, so they still face the name.
    left, *_middle, right = font._visual_order(font.runs("اليڪٽرو (Ada)"))
    assert left.text == ")" and left.level == 1 and not left.rtl  # logically last, drawn mirrored as "("
    assert left.text.translate(_MIRROR) == "(" and right.text.strip() == "اليڪٽرو"


def test_a_language_whose_font_is_missing_falls_back_to_english_and_says_so(monkeypatch, tmp_path, language):
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIRS", ())
    monkeypatch.setenv("COMPANION_FONT_DIRS", str(tmp_path))
    fonts.rescan()
    try:
        language("bn")
        assert display_i18n.language() == "en"
        notice = display_i18n.notice()
        assert notice and "Bengali" in notice and "fonts-noto-core" in notice
        _surface, screen = render_image(play("bohnanza", 3, 1, 5), (1280, 720))
        assert notice in screen.painter.drawn
    finally:
        monkeypatch.undo()
        fonts.rescan()


def test_the_option_for_western_digits_writes_0_to_9(language):
    language("bn", western_digits=True)
    _surface, screen = render_image(play("power_grid", 3, 2, 40), (1280, 720))
    assert screen.painter.style.digits == "latn"
    drawn = "".join(screen.painter.drawn)
    assert not set(drawn) & set("০১২৩৪৫৬৭৮৯") and any(c.isdigit() for c in drawn)
