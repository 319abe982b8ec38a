"""Runs every benchmark in bench/ one after the other and prints their figures: `python bench/run_all.py`."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    """Run each bench_*.py (or only those whose names contain one of the arguments)."""
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if any(word in s.stem for word in argv)]
    failed = []
    for script in scripts:
        print(f"\n===== {script.stem} =====", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"({script.stem}: {time.perf_counter() - started:.1f} s, exit {code})", flush=True)
        if code:
            failed.append(script.stem)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
