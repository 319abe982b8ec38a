"""`companion arena` plays short bot games, checks them with the harness and reports shares, intervals, move times."""

from __future__ import annotations

import json
import re

import pytest

from companion.bots.arena import arena, wilson
from companion.cli.main import main
from companion.core.errors import BadConfig


def test_arena_prints_each_bots_share_interval_and_move_times(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "shifting_stones", "--players", "3", "--games", "3", "--seed", "4",
                 "--bots", "strong,normal,easy", "--think", "strong=0.01"])
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    assert "3 games" in out[0] and "checked by the harness" in out[0]
    rows = [line for line in out if line.strip().startswith("bot ")]
    assert [r.split()[2] for r in rows] == ["strong", "normal", "easy"]
    shares = []
    for row in rows:
        found = re.search(r"wins\s+([\d.]+)%\s+95% CI \[([\d.]+)%, ([\d.]+)%\].*p50 ([\d.]+) ms, p95 ([\d.]+) ms, "
                          r"max ([\d.]+) ms over (\d+) moves", row)
        assert found, row
        share, low, high, p50, p95, top, moves = map(float, found.groups())
        assert low <= share <= high
        assert p50 <= p95 <= top and moves > 0
        shares.append(share)
    assert sum(shares) == pytest.approx(100.0, abs=0.2)  # every game has winners; shared wins split


def test_arena_json_has_the_same_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "power_grid", "-p", "3", "-k", "1", "--bots", "normal,baseline,easy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 1 and data["players"] == 3
    assert {b["bot"] for b in data["bots"]} == {"normal", "baseline", "easy"}
    for row in data["bots"]:
        assert set(row) == {"bot", "wins", "share", "ci95", "moves", "move_ms"}
        assert set(row["move_ms"]) == {"p50", "p95", "max"}
    assert data["checked"] is True
    assert sum(b["wins"] for b in data["bots"]) == pytest.approx(1.0)


def test_seats_rotate_so_each_bot_sits_in_every_chair() -> None:
    result = arena("shifting_stones", 3, 3, 1, ["normal", "easy", "normal"])
    assert result.games == 3
    assert [sorted(e.chairs) for e in result.entries] == [[0, 1, 2]] * 3
    assert [e.chairs[0] for e in result.entries] == [0, 1, 2]


def test_a_wrong_line_up_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "bohnanza", "-p", "4", "-k", "1", "--bots", "strong,normal"]) == 1
    assert "2 bots for 4 players" in capsys.readouterr().err
    with pytest.raises(BadConfig):
        arena("bohnanza", 3, 1, 1, ["strong", "grandmaster", "normal"])


def test_wilson_interval() -> None:
    low, high = wilson(45, 100)
    assert low == pytest.approx(0.3561, abs=1e-3) and high == pytest.approx(0.5475, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
