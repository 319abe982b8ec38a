"""Fixtures of the language checks: what the code says (extracted once per run), the languages, the fonts."""

from __future__ import annotations

import pytest

from companion.i18n import SOURCE_LANGUAGE, available
from companion.i18n.extract import QUICK, Extraction, extract

# The languages the players read (issue 10); English is the source.
PLAYERS_LANGUAGES = ("bn", "sd", "is", "si")


@pytest.fixture(scope="session")
def extraction() -> Extraction:
    """Every message id the code, the games and a few quick games (with the table display drawing) produce."""
    return extract(plan=QUICK)


@pytest.fixture(scope="session")
def languages() -> list[str]:
    return [lang for lang in available() if lang != SOURCE_LANGUAGE]
