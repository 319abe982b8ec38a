"""Ctrl-C at the terminal closes `companion play` quietly: every process of the table hears it, and only the
server acts on it (its hint workers wait for the server to shut them down)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from play_helpers import free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]


def children(pid: int) -> dict[int, str]:
    """`pid`'s child processes and their command lines."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            if stat.rsplit(") ", 1)[1].split()[1] == str(pid):
                out[int(entry)] = Path(f"/proc/{entry}/cmdline").read_text().replace("\0", " ")
        except (OSError, IndexError):
            continue
    return out


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def idle(pid: int) -> bool:
    """Whether the process used no CPU for a moment (a hint worker done warming up, waiting for work)."""
    before = cpu_ticks(pid)
    time.sleep(0.3)
    return cpu_ticks(pid) == before


def test_ctrl_c_at_the_terminal_closes_the_table_without_a_traceback(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_GAMES"}
    # A session of its own, as a terminal's foreground job: Ctrl-C goes to the whole process group.
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "bohnanza", "-p", "3", "--db", str(tmp_path / "t.sqlite3"),
         "--port", str(free_port()), "--bind", "127.0.0.1", "--no-display"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line.rstrip())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        wait_until(lambda: any("ready in" in line for line in lines), 30, "the table to be ready")
        # The hint workers are up (they had printed a KeyboardInterrupt traceback from their idle wait).
        workers = wait_until(lambda: [p for p, c in children(process.pid).items() if "spawn_main" in c], 30,
                             "the hint workers")
        wait_until(lambda: all(idle(p) for p in workers), 30, "the hint workers to wait for work")
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(20) == 0
        reader.join(5)
        text = "\n".join(lines)
        assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    finally:
        if process.poll() is None:
            process.kill()
