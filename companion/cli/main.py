"""Entry point of the `companion` command: assembles the subcommands from their modules."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion import __version__
from companion.core.errors import CompanionError

# Each module has `register(subparsers)`, adding parsers whose `func(args) -> int` runs the command.
COMMAND_MODULES: tuple[str, ...] = (
    "companion.cli.sessions",
    "companion.cli.snapshot",
    "companion.cli.serve",
    "companion.cli.board",
    "companion.i18n.cli",
    "companion.cli.play",
    "companion.cli.arena",
    "companion.cli.night",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion: keeps the books for Power Grid, Bohnanza and Shifting Stones.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CompanionError as exc:
        print(f"companion: {exc.reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
