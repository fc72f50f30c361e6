"""The `ttr-maps` click group. Each command lives in its own module and is listed here."""

from __future__ import annotations

import importlib

import click

from ttr_maps import __version__

# Modules of this package, each defining `command` (a click command or group).
COMMANDS = [
    "validate",
    "schema",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="ttr-maps")
def cli() -> None:
    """ttr-maps: design, check, render, play and simulate Ticket to Ride-style boards.

    An unofficial fan tool. Boards and variants are YAML (or JSON) files; see the README.
    """


for _name in COMMANDS:
    cli.add_command(importlib.import_module(f"{__package__}.{_name}").command)
