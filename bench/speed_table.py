"""The README's Speed table from `run_all.py --json` files: `python bench/speed_table.py RUN.json [ONE_CORE.json]`."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

# (key, what it is, the goal, unit)
ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("play.tap_to_phone_p50_ms", "tap → the last of 7 phones, p50", "≤ 5", "ms"),
    ("play.tap_to_phone_p99_ms", "tap → the last of 7 phones, p99", "≤ 10", "ms"),
    ("play.tap_to_display_p99_ms", "tap → the display, p99", "≤ 10", "ms"),
    ("play.tap_to_display_p50_ms", "tap → the display, p50", "≤ 5", "ms"),
    ("play.disk_commit_p99_ms", "the disk alone: a bare SQLite commit (each tap waits for one), p99", "", "ms"),
    ("play.disk_commit_max_ms", "… the same, max", "", "ms"),
    ("web.feedback_p99_ms", "a phone's action → its own feedback, p99", "≤ 5", "ms"),
    ("web.fanout_p99_ms", "a phone's action → the last of 7 phones, p99", "", "ms"),
    ("shifting_stones.hint6_p95_ms", "Shifting Stones hints, 6-card hand, p95", "≤ 20", "ms"),
    ("shifting_stones.hint6_p95_cpu_ms", "… the same in CPU time", "", "ms"),
    ("shifting_stones.hint8_exact_share", "… 8-card hands searched to the end", "all", "share"),
    ("shifting_stones.hint8_exact_cpu_budget_share", "… the same with the budget counted in CPU time", "all",
     "share"),
    ("shifting_stones.hint_max_ms_any_hand", "Shifting Stones hints, any hand (4–68 cards), max", "≤ 50", "ms"),
    ("power_grid.ksets_synthetic_p95_ms", "Power Grid cheapest k cities, scattered, p95 (worse map)", "≤ 5", "ms"),
    ("power_grid.maxbid_p95_ms", "Power Grid highest safe bid, p95 (worse map)", "≤ 5", "ms"),
    ("display.full_p95_ms", "display, full 1080p frame, English, p95 (worst game)", "≤ 8", "ms"),
    ("display.full_p95_cpu_ms", "… the same in CPU time", "", "ms"),
    ("display.full_p95_ms_shaped", "display, full 1080p frame, Bengali/Sindhi/Sinhala, p95", "≤ 8", "ms"),
    ("display.full_p95_cpu_ms_shaped", "… the same in CPU time", "", "ms"),
    ("display.idle_cpu_percent", "display idle, share of one core", "≈ 0", "%"),
    ("play.start_to_ready_s", "`companion play` start → ready (new or resumed, worst)", "≤ 1", "s"),
)


def shown(value: Any, unit: str) -> str:
    if not isinstance(value, int | float) or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if unit == "share":
        return f"{value:.0%}"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "%":
        return f"{value:.1f} %"
    return f"{value:.1f} ms"


def derived(figures: dict[str, Any]) -> dict[str, Any]:
    """Figures worked out from others (for runs made before the bench wrote them itself)."""
    out = dict(figures)
    shaped = [figures[k] for k in (f"display.full_p95_cpu_ms_{lang}" for lang in ("bn", "sd", "si")) if k in figures]
    if shaped:
        out.setdefault("display.full_p95_cpu_ms_shaped", max(shaped))
    return out


def table(runs: list[dict[str, Any]]) -> str:
    heads = ["figure", "goal"] + [("one core (taskset)" if run.get("one_core") else "this machine") for run in runs]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for key, what, goal, unit in ROWS:
        cells = [shown(derived(run["figures"]).get(key), unit) for run in runs]
        lines.append("| " + " | ".join([what, goal, *cells]) + " |")
    notes = []
    for run in runs:
        m = run["machine"]
        notes.append(f"{'one core' if run.get('one_core') else 'all cores'}: {m['cpu']}, {m['cores']} cores, Python "
                     f"{m['python']}, {run['started']}, load average {run['load_average_before']} → "
                     f"{run['load_average_after']}{' (--quick)' if run.get('quick') else ''}")
    return "\n".join(lines) + "\n\n" + "\n".join(f"- {n}" for n in notes)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    print(table([json.loads(Path(path).read_text()) for path in argv]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
