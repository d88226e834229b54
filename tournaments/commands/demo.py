"""`azul-arena demo`: a real round-robin among the reference bots, in about a minute."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import Annotated

import typer

from tournaments.commands.common import (
    DATA_DIR,
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    Exit,
    builtin_rulesets,
    check_isolation,
    check_ruleset,
    console,
    err_console,
    fail,
    isolation_line,
    leave_interrupted,
    running_store,
    shell_command,
)
from tournaments.commands.groups import demo_app

# Per-move limits that keep the thinking bots quick enough for a one-minute demo.
DEMO_TIME_PER_MOVE = 0.25


def _reference_bots(ruleset: str) -> list[str]:
    """The built-in bots that play `ruleset`, the reference ones first."""
    from referee import builtin_bots

    order = ["random", "greedy", "search", "mcts"]
    present = [b for b in order if b in builtin_bots()]
    bots = present + sorted(b for b in builtin_bots() if b not in order)
    return [b for b in bots if ruleset in (builtin_rulesets(b) or [ruleset])]


@demo_app.command("demo")
def demo(
    games_per_pairing: Annotated[
        int | None,
        typer.Option(min=1, help="Games per pair (default: sized to finish in about a minute)."),
    ] = None,
    db: Annotated[
        Path | None, typer.Option(help="Database (default: a new one under ./arena-data).")
    ] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Games at once.")] = os.cpu_count() or 1,
    ruleset: Annotated[str, typer.Option(help="Ruleset every game uses.")] = "azul",
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
) -> None:
    """Run a small real round-robin among the reference bots (those that play the ruleset)
    and show the leaderboard.

    Example: [bold]azul-arena demo[/]  (what `make demo` runs), or
    [bold]azul-arena demo --ruleset pavilion[/]
    """
    from tournaments.commands.tournament import print_report
    from tournaments.domain.entries import Entry
    from tournaments.domain.settings import MatchSettings
    from tournaments.domain.tournament import TournamentConfig, prepare
    from tournaments.terminal.running import play_in_terminal

    options = check_ruleset(ruleset, 2, option or [], wild)
    bots = _reference_bots(ruleset)
    if len(bots) == 1:
        # Only the random bot exists so far: two copies still make a real tournament.
        entries = [Entry("random-1", bots[0]), Entry("random-2", bots[0])]
    else:
        entries = [Entry(b, b) for b in bots]
    if games_per_pairing is None:
        # Thinking bots take ~DEMO_TIME_PER_MOVE per move, ~60 moves a game: keep it short.
        thinkers = sum(1 for b in bots if b not in ("random", "greedy"))
        games_per_pairing = 40 if thinkers == 0 else 4
    if db is None:
        db = DATA_DIR / f"demo-{secrets.token_hex(3)}.db"
    config = TournamentConfig(
        entries=entries,
        match=MatchSettings(ruleset=ruleset, options=options, time_per_move=DEMO_TIME_PER_MOVE),
        players=2,
        games_per_pairing=games_per_pairing,
        seed=None,
    )
    with contextlib.ExitStack() as stack:
        store = running_store(stack, db)
        config, pending = prepare(store, config)
        console.print(
            f"[bold]demo[/]: {ruleset} round-robin of "
            f"{', '.join(e.name for e in entries)}, {len(pending)} games, "
            f"seed {config.seed}, db {db}"
        )
        # As every run does (README): the level the bots run at, and what it cannot promise here.
        line = isolation_line(str(config.match.isolation))
        console.print(line, highlight=False)
        check_isolation(config.match.isolation)
        store.set_meta("isolation_line", line)  # what `tournament show` repeats
        summary = play_in_terminal(
            store, config, pending, concurrency, console, log_dir=db.parent / "logs"
        )
        if summary.interrupted:
            leave_interrupted(summary.interrupted, db)
        print_report(store, json_out=False, title="Final leaderboard")
    from tournaments.commands.tournament import default_report, write_report

    report = default_report(db)
    write_report(db, report, games=300)
    console.print(
        f"[dim]again: {shell_command('azul-arena')} tournament show --db {db}[/]", highlight=False
    )
    console.print(
        f"[bold]The report: {report.resolve()}[/]\nOpen it in a browser: the game to "
        "watch is at the top, and every game opens in the replay viewer.",
        highlight=False,
        soft_wrap=True,
    )
    if summary.failed:
        err_console.print(f"[red]{summary.failed} game(s) failed[/]")
        for game_id, error in summary.errors[:5]:
            err_console.print(f"  {game_id}: {error}", markup=False)
        fail("the demo did not complete", Exit.FAILED)
