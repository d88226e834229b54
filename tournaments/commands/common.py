"""Small things every command shares: the consoles, JSON output and exit codes."""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any

from rich.console import Console

console = Console()
err_console = Console(stderr=True)


class Exit(IntEnum):
    """Exit codes with a meaning a script can rely on."""

    OK = 0
    FAILED = 1  # the command ran and found a problem (illegal move in a record, a failed check)
    USAGE = 2  # bad arguments or unreadable input (typer uses 2 for usage errors too)


def print_json(obj: Any) -> None:
    """One JSON object on one line on stdout, for scripts."""
    print(json.dumps(obj, separators=(",", ":")), flush=True)


def fail(message: str, code: Exit = Exit.USAGE) -> None:
    """Print a clear error on stderr and leave with `code`."""
    import typer
    from rich.markup import escape

    # The message is plain text: "[[entry]]" or a path with brackets must print as written.
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(int(code))


ISOLATION_HELP = ("How bots run: none | process | sandbox (default: the strongest this machine "
                  "offers; docs/security.md).")


def isolation_line(level: str) -> str:
    """`isolation: LEVEL`, with what it cannot promise on this machine, as every run prints."""
    from referee.sandbox import caveats

    note = caveats(level)
    return f"isolation: {level}" + (f" ({note})" if note else "")


def check_isolation(level: str | None) -> str:
    """`level` (None: the strongest available) if this machine can run bots so; else exit 2
    saying what is missing."""
    from referee.sandbox import IsolationError, require

    try:
        return require(level)
    except IsolationError as exc:
        fail(str(exc))
        raise
