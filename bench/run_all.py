"""Runs every benchmark in bench/ one after the other and prints their figures: `python bench/run_all.py`.

    .venv/bin/python bench/run_all.py [NAME ...] [--json FILE] [--one-core] [--quick]

NAME runs only the benches whose names contain it (`power_grid web`). `--json FILE` writes every figure under a
stable key (`play.tap_to_phone_p99_ms`, `shifting_stones.hint6_p95_ms`, ...) with the machine they were measured
on. `--one-core` runs each bench pinned to one CPU core (`taskset -c 0`, servers and workers included): an
estimate of what a single slow core does, as on a Raspberry Pi where the interpreter is several times slower.
`--quick` asks each bench for fewer samples (a check that they run, not figures to quote).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Fewer samples per bench for --quick.
QUICK = {
    "bench_play": ["--actions", "40", "--starts", "2"],
    "bench_web": ["--actions", "60"],
    "bench_shifting_stones": ["--positions", "40", "--games", "2"],
    "bench_power_grid": ["--games", "4", "--positions", "1"],
    "bench_display": ["--frames", "10", "--idle", "1"],
}
# The benches that write figures (the others only print).
WITH_JSON = {"bench_play", "bench_web", "bench_shifting_stones", "bench_power_grid", "bench_display"}


def machine() -> dict[str, object]:
    """What the figures were measured on."""
    fields: dict[str, str] = {}
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            name, _, value = line.partition(":")
            fields.setdefault(name.strip().lower(), value.strip())
    # x86 names its processor "model name"; a Raspberry Pi names the board "Model" (and "model" is a number on x86).
    model = fields.get("model name") or fields.get("hardware") or fields.get("model", "")
    return {
        "cpu": model or platform.processor() or platform.machine(),
        "cores": os.cpu_count() or 0,
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
    }


def load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="run only benches whose names contain one of these")
    parser.add_argument("--json", metavar="FILE", help="write every figure under stable keys to FILE")
    parser.add_argument("--one-core", action="store_true", help="pin each bench to one core (taskset -c 0)")
    parser.add_argument("--quick", action="store_true", help="fewer samples: checks the benches run")
    args = parser.parse_args(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.names:
        scripts = [s for s in scripts if any(word in s.stem for word in args.names)]
    prefix: list[str] = []
    if args.one_core:
        if shutil.which("taskset") is None:
            print("--one-core needs taskset (util-linux)", file=sys.stderr)
            return 2
        prefix = ["taskset", "-c", "0"]
    handle, figures_path = tempfile.mkstemp(prefix="bench-figures-", suffix=".json")
    os.close(handle)
    started_at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    load_before = load()
    failed = []
    for script in scripts:
        print(f"\n===== {script.stem} =====", flush=True)
        extra = QUICK.get(script.stem, []) if args.quick else []
        if script.stem in WITH_JSON:
            extra = [*extra, "--json", figures_path]
        started = time.perf_counter()
        code = subprocess.call([*prefix, sys.executable, str(script), *extra], cwd=HERE.parent)
        print(f"({script.stem}: {time.perf_counter() - started:.1f} s, exit {code})", flush=True)
        if code:
            failed.append(script.stem)
    figures = json.loads(Path(figures_path).read_text() or "{}")
    os.unlink(figures_path)
    if args.json:
        out = {
            "machine": machine(),
            "one_core": args.one_core,
            "quick": args.quick,
            "started": started_at,
            "load_average_before": round(load_before, 2),
            "load_average_after": round(load(), 2),
            "figures": figures,
        }
        Path(args.json).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
        print(f"\nfigures written to {args.json}")
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
