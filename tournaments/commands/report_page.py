"""`azul-arena tournament report`: a tournament as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournaments.commands.common import console
from tournaments.commands.groups import tournament_app
from tournaments.commands.tournament import DEFAULT_DB, _open_existing, _reading
from tournaments.commands.view import open_in_browser, write_page


def default_report(db: Path) -> Path:
    """Where the report of `db` goes unless -o says: next to it, <db>-report.html."""
    return db.with_name(f"{db.stem}-report.html")


def write_report(db: Path, output: Path, games: int) -> None:
    """Build the report of `db` (with a progress bar) and write it to `output`."""
    from rich.progress import Progress

    from tournaments.web.report_page import report_html

    with _open_existing(db) as store, _reading(db):
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("games", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            text = report_html(store, games, progress)
    write_page(output, text, "the report")


@tournament_app.command("report")
def report(
    db: Annotated[Path, typer.Option(help="Tournament database.")] = DEFAULT_DB,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="The HTML file (default: next to the db, <db>-report.html).")
    ] = None,
    games: Annotated[int, typer.Option(
        min=0, help="How many games the page carries to watch (the best game first).")] = 300,
    open_it: Annotated[bool, typer.Option("--open", help="Open it in a browser.")] = False,
) -> None:
    """Write the tournament as one self-contained HTML page: leaderboard with intervals,
    results by seat, crosstable heat map, rating history, faults, and every game to watch.

    Example: [bold]azul-arena tournament report --db arena-data/tournament.db -o report.html[/]
    """
    path = output or default_report(db)
    write_report(db, path, games)
    console.print(f"wrote {path}", highlight=False, soft_wrap=True)
    if open_it:
        open_in_browser(path)
