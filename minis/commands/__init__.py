"""Subcommands of the `minis` command line, one module per area (see `minis.cli`)."""
