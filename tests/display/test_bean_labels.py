"""Bohnanza's bean names on the table display: the short names, whole and at full size on every card and field, in
every language at every screen size."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import pictograms
from companion.i18n import available, catalog
from display import i18n as display_i18n
from display.app import render_image
from display.offline import play
from display.render.bohnanza import BEAN_NAMES
from display.render.layout import SIZES

# Seven players (the smallest fields and face-up cards) and four, far enough in that fields hold beans.
TABLES = (("bohnanza", 7, 2, 400), ("bohnanza", 4, 3, 300))


@pytest.fixture
def language() -> Iterator[None]:
    yield
    display_i18n.set_language("en", False)


@pytest.mark.parametrize("lang", available())
def test_the_display_names_each_bean_shorter_than_the_phones_full_name(lang):
    cat = catalog(lang)
    for bean, short in BEAN_NAMES.items():
        full = pictograms.label("bean", bean)
        # "Stink", not "Stink Bean": the card's colour and picture already say it is a bean.
        assert len(cat.gettext(short)) < len(cat.gettext(full)), (lang, bean, cat.gettext(short))


@pytest.mark.parametrize("lang", available())
def test_every_bean_label_fits_its_card_or_field_unshrunk_at_every_size(lang, language):
    display_i18n.set_language(lang)
    cat = catalog(lang)
    labels = {cat.gettext(name) for name in BEAN_NAMES.values()}
    for game, players, seed, steps in TABLES:
        model = play(game, players, seed, steps)
        for size in SIZES:
            _surface, screen = render_image(model, size)
            drawn = labels & set(screen.painter.drawn)
            assert drawn, (players, size, "no bean label drawn")
            assert labels & set(screen.painter.shrunk) == set(), (players, size)
            assert screen.painter.overflows == [], (players, size)
