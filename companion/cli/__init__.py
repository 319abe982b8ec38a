"""The `companion` command line: one module per group of subcommands."""
