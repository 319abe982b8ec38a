"""Lets `python -m companion` run the command line."""

from companion.cli.main import main

raise SystemExit(main())
