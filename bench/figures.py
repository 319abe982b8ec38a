"""The benches' figures under stable keys: each bench writes its own with `--json FILE`; run_all.py merges them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def percentile(values: list[float], share: float) -> float:
    """The value at `share` (0..1) of the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def write(path: str | None, figures: dict[str, Any]) -> None:
    """Add `figures` (key → number) to the JSON object in `path` (nothing without a path)."""
    if not path:
        return
    file = Path(path)
    found = json.loads(file.read_text()) if file.exists() and file.stat().st_size else {}
    found.update({key: round(value, 3) if isinstance(value, float) else value for key, value in figures.items()})
    file.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
