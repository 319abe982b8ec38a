"""The page scripts parse as JavaScript modules, and the game renderers match the games."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.core.registry import BUILTIN

STATIC = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
@pytest.mark.parametrize("script", SCRIPTS, ids=[str(p.relative_to(STATIC)) for p in SCRIPTS])
def test_each_script_is_a_valid_module(script):
    result = subprocess.run(["node", "--input-type=module", "--check"], stdin=script.open("rb"),
                            capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr.decode()


def test_every_game_renderer_is_named_after_a_built_in_game():
    renderers = {p.stem for p in (STATIC / "games").glob("*.js")}
    assert renderers <= set(BUILTIN)
