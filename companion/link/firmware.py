"""Where the firmware and hardware files are; the firmware package loaded on the host (codec and sim)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE_DIR = ROOT / "firmware"
PACKAGE_DIR = FIRMWARE_DIR / "tablectl"
HARDWARE_DIR = ROOT / "hardware"
PACKAGE = "tablectl"


def load() -> ModuleType:
    """Import the firmware package `tablectl` from firmware/ without putting that folder on sys.path."""
    if PACKAGE in sys.modules:
        return sys.modules[PACKAGE]
    spec = importlib.util.spec_from_file_location(
        PACKAGE, PACKAGE_DIR / "__init__.py", submodule_search_locations=[str(PACKAGE_DIR)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"no firmware package in {PACKAGE_DIR}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = module
    spec.loader.exec_module(module)
    return module


def module(name: str) -> ModuleType:
    """One firmware module, e.g. `module("frame")`."""
    load()
    return importlib.import_module(f"{PACKAGE}.{name}")


def files() -> list[Path]:
    """Every file deployed to the Pico: main.py and the package."""
    return [FIRMWARE_DIR / "main.py", *sorted(PACKAGE_DIR.glob("*.py"))]
