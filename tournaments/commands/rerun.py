"""`replay rerun`: play a recorded game again and show where a bot chose otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tournaments.commands.common import (
    ISOLATION_HELP,
    Exit,
    check_isolation,
    console,
    fail,
    print_json,
)
from tournaments.commands.groups import replay_app
from tournaments.commands.view import DbOpt, GameOpt, RecordArg, read_game


def _tournament_bots(db: Path, level: str) -> tuple[dict[str, str], dict[str, Any]]:
    """The entries of the tournament in `db` (name -> spec, late ones included) and how it ran
    its bots (memory limits, variables: their values from this environment, ponder)."""
    from tournaments.arena import GameSettings, arena_options
    from tournaments.entries import Entry, EntryError
    from tournaments.store import Store

    with Store.open(db, create=False) as store:
        config = store.config() or {}
        specs = {e.name: e.spec for e in store.entries()}
    entries = []
    for name, spec, *rest in config.get("entries", []):
        extra = rest[0] if rest else {}
        entries.append(Entry(name, spec, extra.get("memory"), tuple(extra.get("env", []))))
    settings = GameSettings(isolation=level, ponder=bool(config.get("ponder")),
                            bot_env=tuple(config.get("bot_env", [])))
    try:
        options = arena_options(entries, settings)
    except EntryError as exc:
        fail(f"{exc}: the tournament passed it to its bots; set it here as it was then")
        raise
    options.pop("isolation", None)
    return specs, options


@replay_app.command("rerun")
def rerun(
    record_file: RecordArg = None,
    db: DbOpt = None,
    game: GameOpt = None,
    seat: Annotated[int | None, typer.Option(
        "--seat", min=0, help="Put --entry in this seat (0-based) instead of its bot.")] = None,
    entry: Annotated[str | None, typer.Option(
        "--entry", help="The bot for --seat: a built-in, path/bot.py[:Class], a bot folder or "
                        "a command line.")] = None,
    isolation: Annotated[str | None, typer.Option(help=ISOLATION_HELP)] = None,
    no_time_limit: Annotated[bool, typer.Option(
        "--no-time-limit", help="No move is late, however long it takes (step through a bot "
                                "in a debugger); the bots are still told their limits.")] = False,
    log_dir: Annotated[Path | None, typer.Option(
        "--log-dir", help="Folder for the bots' logs (default: a temporary one, printed).")
    ] = None,
    replay: Annotated[Path | None, typer.Option(
        "--replay", help="Also write the rerun's record here.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
) -> None:
    """Play a recorded game again, with the same entries in the same seats, the same deals, the
    same bot seeds and game id, and report the first move where a bot chose otherwise (none
    for a bot whose moves depend only on the position and its seed).

    Example: [bold]azul-arena replay rerun --db arena-data/tournament.db --game p3-g1[/]

    Would my fix have won? [bold]azul-arena replay rerun --db t.db --game p3-g1 --seat 1
    --entry ./mybot/bot.py[/]

    Exit codes: 0 the rerun followed the record (or a seat was swapped), 1 a bot chose
    otherwise, 2 bad arguments or a record that cannot be played again.
    """
    from referee import ClockError, check_entry, run_loop, write_replay
    from tournaments.rerun import RerunError
    from tournaments.rerun import rerun as rerun_game

    if (seat is None) != (entry is None):
        fail("--seat and --entry go together: --seat N --entry PATH puts PATH in seat N")
    record = read_game(record_file, db, game)
    level = check_isolation(isolation)
    specs, options = None, None
    if db is not None:  # the tournament's entries, as this machine starts them
        specs, options = _tournament_bots(db, level)
    try:
        if entry is not None:
            check_entry(entry)
        done = run_loop(rerun_game(record, specs, isolation=level, time_limit=not no_time_limit,
                                   swap=(seat, entry) if seat is not None and entry else None,
                                   log_dir=log_dir, arena_options=options))
    except (RerunError, ClockError, ValueError) as exc:
        fail(str(exc))
        return
    if replay is not None:
        write_replay(replay, done.result.record)
    differs = done.difference is not None and done.swapped is None
    if json_out:
        print_json(done.to_json())
        raise typer.Exit(int(Exit.FAILED if differs else Exit.OK))
    for note in done.notes:
        console.print(f"note: {note}", highlight=False)
    for i, (name, spec) in enumerate(zip(done.names, done.entries, strict=True)):
        swapped = " (swapped in)" if i == done.swapped else ""
        console.print(f"seat {i}: {name} = {spec}{swapped}", markup=False, highlight=False)
    diff = done.difference
    if diff is None:
        console.print(f"[green]the rerun followed the record: all {done.moves} moves the "
                      "same[/]")
    else:
        who = f"seat {diff.seat} ({diff.name})"
        why = ("; the referee chose the recorded one for a faulty seat"
               if diff.recorded_substituted else "")
        why += "; the referee chose this one for a faulty seat" if diff.played_substituted else ""
        console.print(f"[yellow]first difference at move {diff.ply}[/] (0-based, of "
                      f"{done.moves}): {who} played {diff.played}, the record has "
                      f"{diff.recorded}{why}", highlight=False)
        console.print(f"  the position before it: azul-arena replay show GAME --move {diff.ply}"
                      f"; in a test: Game.from_record(record, upto={diff.ply})",
                      markup=False, highlight=False)
    console.print(f"scores: recorded {done.recorded_scores}, rerun {done.result.scores}; ranks: "
                  f"recorded {done.recorded_ranks}, rerun {done.result.ranks}", highlight=False)
    for i, s in enumerate(done.result.seats):
        if s.termination != "ok" or s.strikes:
            console.print(f"seat {i}: {s.termination}, faults {s.faults}", highlight=False)
    console.print("bot logs: " + ", ".join(s.log_path for s in done.result.seats),
                  markup=False, highlight=False)
    if replay is not None:
        console.print(f"rerun's record: {replay}", markup=False, highlight=False)
    raise typer.Exit(int(Exit.FAILED if differs else Exit.OK))
