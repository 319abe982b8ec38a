"""The quick start: creates the virtual environment, installs what is missing, then plays or tests.

Run from a checkout with the system Python (standard library only):
    python3 -m companion.bootstrap play     # start a table
    python3 -m companion.bootstrap test     # run every test
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"

# Debian / Raspberry Pi OS packages: what the companion needs to run, and what the tests add.
RUN_PACKAGES = {"python3-venv": None, "fonts-noto-core": "/usr/share/fonts/truetype/noto"}
TEST_PACKAGES = {"chromium": "/usr/bin/chromium", "nodejs": "/usr/bin/node", "npm": "npm"}
NODE_PROJECTS = [ROOT / "tests" / "controller" / "node", ROOT / "tests" / "web" / "node"]


def say(text: str) -> None:
    print(f"[companion] {text}", flush=True)


def run(cmd: list[str], **kwargs: object) -> None:
    subprocess.run(cmd, check=True, **kwargs)  # type: ignore[call-overload]


def _missing(packages: dict[str, str | None]) -> list[str]:
    missing = []
    for name, probe in packages.items():
        if name == "python3-venv":
            try:
                import ensurepip  # noqa: F401
            except ImportError:
                missing.append(name)
            continue
        if probe and (os.path.exists(probe) or shutil.which(probe)):
            continue
        missing.append(name)
    return missing


def ensure_system(packages: dict[str, str | None]) -> None:
    """Install the Debian packages that are missing (as root, or through sudo)."""
    missing = _missing(packages)
    if not missing:
        return
    if not shutil.which("apt-get"):
        say(f"please install: {' '.join(missing)}")
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    say(f"installing {' '.join(missing)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run([*sudo, "apt-get", "update", "-q"], env=env)
    run([*sudo, "apt-get", "install", "-y", "-q", "--no-install-recommends", *missing], env=env)


def ensure_venv(extra: str) -> None:
    """Create .venv and install the project (editable) with the given extra, once per pyproject change."""
    if not (BIN / "python").exists():
        say("creating the virtual environment in .venv")
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / f".installed-{extra or 'base'}"
    pyproject = ROOT / "pyproject.toml"
    if stamp.exists() and stamp.stat().st_mtime >= pyproject.stat().st_mtime:
        return
    say("installing the companion and its dependencies")
    target = f".[{extra}]" if extra else "."
    run([str(BIN / "python"), "-m", "pip", "install", "-q", "--upgrade", "pip"])
    run([str(BIN / "python"), "-m", "pip", "install", "-q", "-e", target], cwd=ROOT)
    stamp.touch()


def ensure_node_projects() -> None:
    for folder in NODE_PROJECTS:
        if (folder / "package.json").exists() and not (folder / "node_modules").exists():
            say(f"installing the Node packages in {folder.relative_to(ROOT)}")
            lock = (folder / "package-lock.json").exists()
            run(["npm", "ci" if lock else "install", "--no-audit", "--no-fund"], cwd=folder)


def follow(command: list[str], cwd: Path | None = None, grace: float = 5.0) -> int:
    """Run `command` to its end and return its exit code. Ctrl-C at the terminal reaches the child as well (one
    process group), and the table closes itself in good order: this waits for it, where `subprocess.call` killed
    it outright and printed a traceback. A Ctrl-C the child has not closed on after `grace` seconds (one sent to
    this process alone) is passed on to it."""
    child = subprocess.Popen(command, cwd=cwd)
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:
            try:
                return child.wait(grace)
            except (subprocess.TimeoutExpired, KeyboardInterrupt):
                with contextlib.suppress(ProcessLookupError):
                    child.send_signal(signal.SIGINT)


def cmd_play(args: list[str]) -> int:
    ensure_system(RUN_PACKAGES)
    ensure_venv("")
    say("starting the table")
    companion = str(BIN / "companion")
    has_play = subprocess.run([companion, "play", "--help"], capture_output=True).returncode == 0
    command = [companion, "play", *args] if has_play else [companion, "demo", *args]
    return follow(command)


def cmd_test(args: list[str]) -> int:
    ensure_system({**RUN_PACKAGES, **TEST_PACKAGES})
    ensure_venv("dev")
    ensure_node_projects()
    py = str(BIN / "python")
    say("ruff")
    if subprocess.call([py, "-m", "ruff", "check", "."], cwd=ROOT):
        return 1
    firmware_config = ROOT / "firmware" / "pyrightconfig.json"
    for project in [ROOT / "pyproject.toml", firmware_config]:
        if project.exists():
            say(f"pyright ({project.relative_to(ROOT)})")
            if subprocess.call([str(BIN / "pyright"), "-p", str(project)], cwd=ROOT):
                return 1
    say("pytest")
    return follow([py, "-m", "pytest", *args], cwd=ROOT)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("play", "test"):
        print(__doc__)
        return 2
    return (cmd_play if argv[0] == "play" else cmd_test)(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
