"""`azul-arena tournament add-entry|remove-entry`: a class that grows (adaptive and Swiss)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from tournaments.commands.common import console, fail
from tournaments.commands.groups import tournament_app
from tournaments.commands.tournament import DEFAULT_DB, _open_existing, _reading

_GROWING = ("adaptive", "swiss")


def _check_growing(store) -> None:  # type: ignore[no-untyped-def]
    """Refuse a tournament whose schedule is fixed from the start."""
    config = store.config() or {}
    schedule = str(config.get("schedule", "round-robin"))
    if schedule not in _GROWING:
        kind = "gauntlet" if config.get("gauntlet") else schedule
        fail(f"{store.path} holds a {kind} tournament, whose schedule is fixed from the start; "
             "entries join or leave only adaptive and Swiss tournaments (tournament run "
             "--schedule adaptive or swiss)")


def _change(db: Path, apply: Callable[[Any], object]) -> int:
    """Apply one entry change to the tournament in `db`; return the entries paired from now."""
    from tournaments.store import StoreError

    with _open_existing(db) as store, _reading(db):
        _check_growing(store)
        try:
            apply(store)
        except StoreError as exc:
            fail(str(exc))
        return len(store.entries()) - len(store.removed_entries())


@tournament_app.command("add-entry")
def add_entry(
    entry: Annotated[str, typer.Argument(
        metavar="NAME=SPEC", help="The new entry: a built-in, path/bot.py[:Class], a bot folder "
                                  "or a command line, as for tournament run.")],
    db: Annotated[Path, typer.Option(help="Tournament database (adaptive or Swiss).")
    ] = DEFAULT_DB,
    memory: Annotated[str | None, typer.Option(
        help="Its memory limit (512M, 2G), as `memory` of an entry in the TOML file (default: "
             "the referee's, 2G).")] = None,
    env: Annotated[list[str] | None, typer.Option(
        "--env", help="A variable it gets: NAME=VALUE, or NAME (the runner's value); "
                      "repeatable, as `env` of an entry in the TOML file.")] = None,
) -> None:
    """Add a late entry to an adaptive or Swiss tournament, even while it runs: it is paired
    from the next round on (first, until it has its minimum games); nothing is replayed. It
    runs as every entry does: at the tournament's isolation level, with its own limits, its
    folder hidden from the other entries and theirs from it.

    Example: [bold]azul-arena tournament add-entry late=./students/late/bot.py --memory 512M
    --db class.db[/]
    """
    import re

    from tournaments.entries import Entry, EntryError, check_entries, parse_entry, parse_size

    try:
        new = parse_entry(entry)
        check_entries([new])
        for item in env or []:  # a NAME alone takes its value in the runner's environment
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*(=|$)", item):
                raise EntryError(f"--env {item!r} is not NAME or NAME=VALUE")
        new = Entry(new.name, new.spec, parse_size(memory, "--memory") if memory else None,
                    tuple(env or ()))
    except EntryError as exc:
        fail(str(exc))
    count = _change(db, lambda store: store.add_entry(new))
    console.print(f"added [bold]{new.name}[/] ({new.spec}) to {db}: {count} entries are paired "
                  "from the next round on")


@tournament_app.command("remove-entry")
def remove_entry(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The entry to retire.")],
    db: Annotated[Path, typer.Option(help="Tournament database (adaptive or Swiss).")
    ] = DEFAULT_DB,
) -> None:
    """Retire an entry of an adaptive or Swiss tournament, even while it runs: its games played
    stay (and count in the ratings), its games not played yet are withdrawn (a game it is
    playing right now is not recorded), and it is paired no more.

    Example: [bold]azul-arena tournament remove-entry bob --db class.db[/]
    """
    withdrawn: list[int] = []
    _change(db, lambda store: withdrawn.append(store.remove_entry(name)))
    console.print(f"removed [bold]{name}[/] from {db}: its games played stay, "
                  f"{withdrawn[0]} not played yet withdrawn; it is paired no more")
