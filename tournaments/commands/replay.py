"""`azul-arena replay ...`: game records checked against the rules (`verify`), shown as a page
(`view`) or in the terminal (`show`), and played again to see where a bot chose otherwise
(`rerun`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from tournaments.commands.common import (
    ISOLATION_HELP,
    LOGS_DIR,
    Exit,
    check_isolation,
    console,
    fail,
    open_in_browser,
    print_json,
    write_page,
)
from tournaments.commands.groups import replay_app

if TYPE_CHECKING:
    from referee.engine import RecordError


def _error_json(error: RecordError | None, path: Path) -> dict[str, Any] | None:
    if error is None:
        return None
    reason = str(error.reason)
    if error.rule and reason.endswith(f" [{error.rule}]"):
        reason = reason[: -len(f" [{error.rule}]")]
    if reason.startswith(f"{path}: "):
        reason = reason[len(f"{path}: ") :]
    return {
        "round": error.round,
        "move_number": error.move_number,
        "move": error.move,
        "reason": reason,
        "rule": error.rule,
    }


def check_file(path: Path) -> dict[str, Any]:
    """Verify one record file; never raises for a bad file (the result says what is wrong)."""
    from referee.engine import EngineError, RecordError, load_record, verify

    result: dict[str, Any] = {
        "file": str(path),
        "ok": False,
        "complete": False,
        "round_scores": [],
        "final_scores": None,
        "error": None,
        "mismatches": [],
    }
    try:
        record = load_record(path)
        verdict = verify(record)
    except RecordError as exc:
        result["error"] = _error_json(exc, path)
        return result
    except (EngineError, ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        # Anything the engine did not foresee still becomes a one-line error, not a traceback.
        result["error"] = {
            "round": None,
            "move_number": None,
            "move": None,
            "reason": f"unreadable record ({type(exc).__name__}: {exc})",
            "rule": None,
        }
        return result
    result.update(
        ok=verdict.ok,
        complete=verdict.complete,
        round_scores=verdict.round_scores,
        final_scores=verdict.final_scores,
        error=_error_json(verdict.error, path),
        mismatches=list(verdict.mismatches),
    )
    return result


def _where(error: dict[str, Any]) -> str:
    parts = []
    if error.get("round") is not None:
        parts.append(f"round {error['round']}")
    if error.get("move_number") is not None:
        parts.append(f"move {error['move_number']}")
    if error.get("move") is not None:
        parts.append(repr(error["move"]))
    return ", ".join(parts)


def _print_human(result: dict[str, Any]) -> None:
    name = result["file"]
    error = result["error"]
    if error is not None:
        where = _where(error)
        rule = f" [{error['rule']}]" if error.get("rule") else ""
        console.print(
            f"[bold red]FAIL[/] {escape(name)}: {escape(where + ': ' if where else '')}"
            f"{escape(error['reason'] + rule)}",
            highlight=False,
            soft_wrap=True,
        )
        return
    if result["ok"]:
        status = "[bold green]OK[/]" + ("" if result["complete"] else " (game not finished)")
        console.print(f"{status} {escape(name)}", highlight=False, soft_wrap=True)
    else:
        console.print(f"[bold red]FAIL[/] {escape(name)}", highlight=False, soft_wrap=True)
        for text in result["mismatches"]:
            console.print(f"  {escape(text)}", highlight=False, soft_wrap=True)
    rounds = result["round_scores"]
    if rounds:
        seats = len(rounds[0])
        table = Table(show_edge=False, pad_edge=False, box=None)
        table.add_column("round", justify="right")
        for s in range(seats):
            table.add_column(f"seat {s}", justify="right")
        for k, scores in enumerate(rounds, 1):
            table.add_row(str(k), *(str(v) for v in scores))
        if result["final_scores"] is not None:
            table.add_row("final", *(str(v) for v in result["final_scores"]), style="bold")
        console.print(table)


@replay_app.command("verify")
def verify_cmd(
    files: Annotated[list[Path], typer.Argument(help="Record files (JSON) to replay and check.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per line per file.")
    ] = False,
) -> None:
    """Replay each record: report the first illegal move (file, round, move, why) and the scores
    after each round (classic: its wall-tiling; pavilion: its play phase) and at the end. Exit 0
    if every file verifies, 1 otherwise.

    Example: azul-arena replay verify arena-data/replays/*.json --json
    """
    all_ok = True
    for path in files:
        result = check_file(path)
        all_ok = all_ok and result["ok"]
        if as_json:
            print_json(result)
        else:
            _print_human(result)
    raise typer.Exit(int(Exit.OK if all_ok else Exit.FAILED))


RecordArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="[GAME]", help="A record file (JSON), as `match` and `play` write them."
    ),
]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", help="A tournament database: take the game from it (with --game)."),
]
GameOpt = Annotated[str | None, typer.Option("--game", help="The game's id in --db (e.g. p0-g1).")]


def read_game(record_file: Path | None, db: Path | None, game: str | None) -> dict[str, Any]:
    """The record named on the command line: a file, or a game of a tournament database."""
    from referee.engine import RecordError, load_record

    if (record_file is None) == (db is None):
        fail("give a record file, or --db FILE --game ID")
    if record_file is not None:
        if game is not None:
            fail("--game goes with --db, not with a record file")
        try:
            return load_record(record_file)
        except RecordError as exc:
            fail(str(exc))
    assert db is not None
    if game is None:
        fail("--db needs --game ID (the ids are in `azul-arena tournament export --csv`)")
    from tournaments.domain.store import Store, StoreError

    try:
        with Store.open(db, create=False) as store:
            record = store.replay(str(game))
    except StoreError as exc:
        fail(str(exc))
    if record is None:
        fail(f"{db} holds no finished game {game!r}")
    return record


def default_output(record_file: Path | None, db: Path | None, game: str | None) -> Path:
    """Next to the input: game.json -> game.html, a db's game -> <db>-<game>.html."""
    if record_file is not None:
        return record_file.with_suffix(".html")
    assert db is not None
    return db.with_name(f"{db.stem}-{game}.html")


@replay_app.command("view")
def view(
    record_file: RecordArg = None,
    db: DbOpt = None,
    game: GameOpt = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="The HTML file to write (default: next to the input)."),
    ] = None,
    open_it: Annotated[bool, typer.Option("--open", help="Open it in a browser.")] = False,
) -> None:
    """Write a game as one self-contained HTML page (no network needed): step through it, play
    it at a chosen speed, follow the scores; `#move=N` in the address points at a move.

    Example: [bold]azul-arena replay view arena-data/replays/3f2a.json --open[/]
    """
    from referee.engine import EngineError
    from tournaments.web.replay_page import viewer_html

    record = read_game(record_file, db, game)
    try:
        text = viewer_html(record)
    except (EngineError, ValueError, KeyError, TypeError, IndexError) as exc:
        fail(f"cannot draw this game: {exc}", Exit.FAILED)
    path = output or default_output(record_file, db, game)
    write_page(path, text, "the replay page")
    console.print(f"wrote {path}", highlight=False, soft_wrap=True)
    if open_it:
        open_in_browser(path)


@replay_app.command("show")
def show(
    record_file: RecordArg = None,
    db: DbOpt = None,
    game: GameOpt = None,
    move: Annotated[
        int | None,
        typer.Option(
            "--move", "-m", help="Show the table after this many moves (default: the end)."
        ),
    ] = None,
) -> None:
    """Print the table at one move of a game, in colour, with who moved and how.

    Example: [bold]azul-arena replay show game.json --move 23[/]
    """
    from rich.markup import escape

    from referee.engine import EngineError
    from tournaments.families import view_for

    record = read_game(record_file, db, game)
    try:
        family = view_for(str(record.get("ruleset")))
        states, moves = family.replay_states(record)
    except (EngineError, NotImplementedError, ValueError, KeyError, TypeError) as exc:
        fail(f"cannot replay this game: {exc}", Exit.FAILED)
    n = len(moves) if move is None else move
    if not 0 <= n <= len(moves):
        fail(f"--move {move}: this game has moves 0 to {len(moves)}")
    names = record["players"] if isinstance(record.get("players"), list) else None
    if n > 0:
        before = states[n - 1]
        who = names[before["turn"]] if names else f"seat {before['turn']}"
        console.print(
            f"move {n} of {len(moves)}: [bold]{escape(who)}[/] {moves[n - 1]} "
            f"({escape(family.describe(before, moves[n - 1]))})",
            highlight=False,
        )
    else:
        console.print(f"start of the game ({len(moves)} moves)")
    console.print(family.board(states[n], names))


def _tournament_bots(db: Path, level: str) -> tuple[dict[str, str], dict[str, Any]]:
    """The entries of the tournament in `db` (name -> spec, late ones included) and how it ran
    its bots (memory limits, variables: their values from this environment, ponder)."""
    from tournaments.domain.arena import arena_options
    from tournaments.domain.entries import Entry, EntryError
    from tournaments.domain.settings import MatchSettings
    from tournaments.domain.store import Store

    with Store.open(db, create=False) as store:
        config = store.config() or {}
        specs = {e.name: e.spec for e in store.entries()}
    entries = []
    for name, spec, *rest in config.get("entries", []):
        extra = rest[0] if rest else {}
        entries.append(Entry(name, spec, extra.get("memory"), tuple(extra.get("env", []))))
    settings = MatchSettings(
        isolation=level, ponder=bool(config.get("ponder")), bot_env=tuple(config.get("bot_env", []))
    )
    try:
        options = arena_options(entries, settings)
    except EntryError as exc:
        fail(f"{exc}: the tournament passed it to its bots; set it here as it was then")
    options.pop("isolation", None)
    return specs, options


@replay_app.command("rerun")
def rerun(
    record_file: RecordArg = None,
    db: DbOpt = None,
    game: GameOpt = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", min=0, help="Put --entry in this seat (0-based) instead of its bot."
        ),
    ] = None,
    entry: Annotated[
        str | None,
        typer.Option(
            "--entry",
            help="The bot for --seat: a built-in, path/bot.py[:Class], a bot folder or "
            "a command line.",
        ),
    ] = None,
    isolation: Annotated[str | None, typer.Option(help=ISOLATION_HELP)] = None,
    no_time_limit: Annotated[
        bool,
        typer.Option(
            "--no-time-limit",
            help="No move is late, however long it takes (step through a bot "
            "in a debugger); the bots are still told their limits.",
        ),
    ] = False,
    log_dir: Annotated[
        Path, typer.Option("--log-dir", help="Folder for the bots' logs (their paths printed).")
    ] = LOGS_DIR,
    replay: Annotated[
        Path | None, typer.Option("--replay", help="Also write the rerun's record here.")
    ] = None,
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
    from referee import ClockError, Termination, check_entry, run_loop, write_replay
    from tournaments.domain.rerun import RerunError
    from tournaments.domain.rerun import rerun as rerun_game

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
        done = run_loop(
            rerun_game(
                record,
                specs,
                isolation=level,
                time_limit=not no_time_limit,
                swap=(seat, entry) if seat is not None and entry else None,
                log_dir=log_dir,
                arena_options=options,
            )
        )
    except (RerunError, ClockError, ValueError) as exc:
        fail(str(exc))
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
        console.print(f"[green]the rerun followed the record: all {done.moves} moves the same[/]")
    else:
        who = f"seat {diff.seat} ({diff.name})"
        why = (
            "; the referee chose the recorded one for a faulty seat"
            if diff.recorded_substituted
            else ""
        )
        why += "; the referee chose this one for a faulty seat" if diff.played_substituted else ""
        console.print(
            f"[yellow]first difference at move {diff.ply}[/] (0-based, of "
            f"{done.moves}): {who} played {diff.played}, the record has "
            f"{diff.recorded}{why}",
            highlight=False,
        )
        console.print(
            f"  the position before it: azul-arena replay show GAME --move {diff.ply}"
            f"; in a test: Game.from_record(record, upto={diff.ply})",
            markup=False,
            highlight=False,
        )
    console.print(
        f"scores: recorded {done.recorded_scores}, rerun {done.result.scores}; ranks: "
        f"recorded {done.recorded_ranks}, rerun {done.result.ranks}",
        highlight=False,
    )
    for i, s in enumerate(done.result.seats):
        if s.termination != Termination.OK or s.strikes:
            console.print(f"seat {i}: {s.termination}, faults {s.faults}", highlight=False)
    console.print(
        "bot logs: " + ", ".join(s.log_path for s in done.result.seats),
        markup=False,
        highlight=False,
    )
    if replay is not None:
        console.print(f"rerun's record: {replay}", markup=False, highlight=False)
    raise typer.Exit(int(Exit.FAILED if differs else Exit.OK))
