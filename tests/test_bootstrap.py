"""The quick start's wrapper (`python3 -m companion.bootstrap play`) and Ctrl-C: the table closes in good order and
nobody sees a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A stand-in for the table: says it is ready, and on SIGINT closes (a moment's work) with its own exit code.
TABLE = """
import signal, sys, time
def close(*_):
    time.sleep(0.2)
    print("closed", flush=True)
    sys.exit(3)
signal.signal(signal.SIGINT, close)
print("ready", flush=True)
while True:
    time.sleep(0.05)
"""
WRAPPER = ("import sys; from companion.bootstrap import follow; "
           "raise SystemExit(follow([sys.executable, '-c', {table!r}], grace={grace}))")


def start(grace: float) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, "-c", WRAPPER.format(table=TABLE, grace=grace)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def test_ctrl_c_at_the_terminal_lets_the_table_close_and_gives_its_exit_code():
    process = start(grace=5.0)
    os.killpg(process.pid, signal.SIGINT)  # the terminal's Ctrl-C: every process of the group
    out, err = process.communicate(timeout=10)
    assert process.returncode == 3 and "closed" in out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_ctrl_c_sent_to_the_wrapper_alone_is_passed_on_to_the_table():
    process = start(grace=0.3)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)  # the wrapper only: the table hears it once the grace is over
    out, err = process.communicate(timeout=10)
    assert process.returncode == 3 and "closed" in out and time.monotonic() - started >= 0.3
    assert "Traceback" not in err, err
