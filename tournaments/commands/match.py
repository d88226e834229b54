"""`azul-arena match`: one game between real bot processes through the referee, shown live."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee import Termination, run_loop
from tournaments.commands.common import (
    CLOCK_HELP,
    ISOLATION_HELP,
    LOGS_DIR,
    OPTION_HELP,
    RECORDS_DIR,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    Exit,
    check_clock,
    check_fault_policy,
    check_isolation,
    check_plays,
    check_ruleset,
    console,
    fail,
    isolation_line,
    print_json,
    shell_command,
)
from tournaments.commands.groups import match_app

if TYPE_CHECKING:
    from referee import MatchConfig, MatchEvent, MatchResult


@match_app.command("match")
def match(
    entries: Annotated[
        list[str],
        typer.Argument(
            help="2-4 bots: built-in name, path/bot.py[:Class], a bot folder or a quoted "
            "command line"
        ),
    ],
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="ruleset name")] = "azul",
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="seed of the deals")] = None,
    time_per_move: Annotated[
        float, typer.Option("--time-per-move", "-t", min=0.001, help="seconds per move")
    ] = 1.0,
    time_bank: Annotated[
        float, typer.Option("--time-bank", min=0.0, help="time bank per seat, seconds")
    ] = 0.0,
    first_move_allowance: Annotated[
        float,
        typer.Option(
            "--first-move-allowance", min=0.0, help="extra seconds for a seat's first move"
        ),
    ] = 0.0,
    grace: Annotated[float, typer.Option("--grace", min=0.0, help="grace margin, seconds")] = 0.05,
    policy: Annotated[
        str,
        typer.Option(
            "--fault-policy",
            "--policy",
            help="on a fault: random (substitute, count a strike) | forfeit",
        ),
    ] = "random",
    max_strikes: Annotated[
        int,
        typer.Option("--max-strikes", min=1, help="strikes before a seat forfeits (policy random)"),
    ] = 3,
    replay: Annotated[
        Path | None,
        typer.Option("--replay", help=f"replay file (default: {RECORDS_DIR}/<id>.json)"),
    ] = None,
    log_dir: Annotated[
        Path, typer.Option("--log-dir", help="folder for the bots' logs")
    ] = LOGS_DIR,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object on stdout")] = False,
    board: Annotated[
        bool,
        typer.Option(
            "--board", help="the table after every move (without: at each new round and phase)"
        ),
    ] = False,
    isolation: Annotated[str | None, typer.Option("--isolation", help=ISOLATION_HELP)] = None,
    bot_env: Annotated[
        list[str] | None,
        typer.Option(
            "--bot-env", metavar="NAME[=VALUE]", help="a variable every bot gets (repeat it)"
        ),
    ] = None,
    memory: Annotated[
        str | None, typer.Option("--memory", help="memory limit per bot (512M, 2G)")
    ] = None,
    ponder: Annotated[
        bool, typer.Option("--ponder", help="bots think on the others' time (default: frozen)")
    ] = False,
    clock: Annotated[str, typer.Option("--clock", help=CLOCK_HELP)] = "wall",
) -> None:
    """Play one game between real bot processes through the referee: each move in words as it
    happens, the table at each new round and phase (with --board, after every move), the final
    table, each seat's result, and a replay file.

    Example: azul-arena match greedy mcts --ruleset pavilion --seed 7 -t 0.5
    """
    from referee import Arena, Clock, FaultPolicy, MatchConfig, write_replay

    if not 2 <= len(entries) <= 4:
        fail("a match has 2 to 4 entries")
    check_fault_policy(policy)
    options = check_ruleset(ruleset, len(entries), option or [], wild)
    check_clock(clock)
    level = check_isolation(isolation)
    arena_kwargs = _arena_options(entries, ruleset, level, memory, ponder, bot_env or [])
    if not as_json:
        console.print(isolation_line(level), highlight=False)
    # Chosen here, so that the watcher deals the same tiles as the referee from the same seed.
    seed = seed if seed is not None else secrets.randbelow(2**31)
    config = MatchConfig(
        ruleset=ruleset,
        seed=seed,
        options=options,
        time_per_move=time_per_move,
        time_bank=time_bank,
        first_move_allowance=first_move_allowance,
        grace=grace,
        fault_policy=FaultPolicy(policy),  # checked above (common.check_fault_policy)
        max_strikes=max_strikes,
        clock=Clock(clock),  # checked above
    )
    show = None if as_json else _live_view(entries, config, seed, board)

    async def go() -> MatchResult | list[str]:
        async with Arena(list(dict.fromkeys(entries)), log_dir=log_dir, **arena_kwargs) as arena:
            # A seat that cannot start (a syntax or import error) stops the match before it
            # begins: a whole game of substituted moves would only hide the reason.
            why = [(e, await arena.cannot_start(e)) for e in dict.fromkeys(entries)]
            if any(reason for _, reason in why):
                return [f"{e} cannot start: {reason}" for e, reason in why if reason]
            return await arena.play(list(entries), config, on_event=show)

    try:
        result = run_loop(go())
    except ValueError as exc:
        fail(str(exc))
    if isinstance(result, list):
        fail("; ".join(result) + " (fix it, then `azul-arena bot check` it)", Exit.FAILED)
    path = replay or RECORDS_DIR / f"{result.match_id}.json"
    write_replay(path, result.record)
    if as_json:
        print_json(_result_json(result, level, clock, path))
    else:
        _print_result(result, config, path)


def _arena_options(
    entries: list[str],
    ruleset: str,
    level: str,
    memory: str | None,
    ponder: bool,
    bot_env: list[str],
) -> dict[str, Any]:
    """The Arena's options for these entries (each launchable and playing `ruleset`), or exit 2
    saying what is wrong."""
    from referee import check_entry
    from tournaments.domain.arena import arena_options
    from tournaments.domain.entries import Entry, EntryError, parse_size
    from tournaments.domain.settings import MatchSettings

    try:
        for entry in entries:
            check_entry(entry)
        check_plays(list(entries), ruleset)
        limit = parse_size(memory, "--memory") if memory else None
        return arena_options(
            [Entry(e, e, limit) for e in dict.fromkeys(entries)],
            MatchSettings(isolation=level, ponder=ponder, bot_env=tuple(bot_env)),
        )
    except (EntryError, ValueError) as exc:
        fail(str(exc))


def _live_view(
    entries: list[str], config: MatchConfig, seed: int, board: bool
) -> Callable[[MatchEvent], None]:
    """What the terminal shows as the game goes: each move in words and the table (the
    watcher replays the game from the same seed), faults, the end."""
    from referee import MatchEnded, MovePlayed, SeatFaulted
    from tournaments.terminal.human import TableWatcher

    watcher = TableWatcher(
        console,
        config.ruleset,
        list(entries),
        seed,
        board=board,
        options=config.options,
        rounds=not board,
    )
    started = False

    def show(event: MatchEvent) -> None:
        nonlocal started
        if not started:  # at the game's first event: nothing shows for a match that never began
            started = True
            watcher.start()
        if isinstance(event, MovePlayed | SeatFaulted):
            watcher(event)
        elif isinstance(event, MatchEnded):
            console.print(f"game over: {event.reason}")

    return show


def _result_json(result: MatchResult, level: str, clock: str, path: Path) -> dict[str, Any]:
    return {
        "match_id": result.match_id,
        "isolation": level,
        "clock": clock,
        "scores": result.scores,
        "ranks": result.ranks,
        "reason": result.reason,
        "replay": str(path),
        "seats": [
            {
                "entry": s.entry,
                "bot": s.bot_name,
                "score": s.score,
                "rank": s.rank,
                "termination": s.termination,
                "strikes": s.strikes,
                "faults": s.faults,
                "moves": s.moves,
                "move_time_total": s.move_time_total,
                "cpu_time": s.cpu_time,
                "log": s.log_path,
            }
            for s in result.seats
        ],
    }


def _print_result(result: MatchResult, config: MatchConfig, path: Path) -> None:
    """The final table as the live view draws a table, each seat's result, why a seat
    faulted, and where the record is."""
    from rich.table import Table

    from referee.engine import replay as replay_record
    from tournaments.families import view_for

    # The final position, rebuilt from the record the referee wrote.
    final = replay_record(result.record)
    names = [s.entry for s in result.seats]
    console.print(view_for(config.ruleset).board(final.to_state(), names))
    rules = ", ".join(
        [config.ruleset, *(f"{k.replace('_', ' ')} {v}" for k, v in config.options.items())]
    )
    moves = sum(s.moves for s in result.seats)
    table = Table(
        title=f"match {result.match_id}: {rules}, seed {config.seed}, {config.clock} clock; "
        f"{final.round} rounds, {moves} moves in {result.duration:.2f} s"
    )
    for col in ("seat", "entry", "score", "rank", "termination", "strikes", "moves"):
        table.add_column(col)
    table.add_column("log", overflow="fold")  # a path in full, to open
    for i, s in enumerate(result.seats):
        table.add_row(
            str(i),
            s.entry,
            str(s.score),
            str(s.rank),
            s.termination,
            str(s.strikes),
            str(s.moves),
            s.log_path,
        )
    console.print(table)
    for i, s in enumerate(result.seats):
        if s.termination != Termination.OK or s.strikes:
            _explain_faults(i, s.entry, s.termination, s.faults, s.log_path)
    console.print(
        f"record: {path} (watch it: {shell_command('azul-arena')} replay view {path} --open)",
        highlight=False,
        soft_wrap=True,
    )


def _explain_faults(
    seat: int, entry: str, termination: str, faults: dict[str, int], log_path: str
) -> None:
    """Why a seat faulted, where a newcomer looks first: the end of its bot's log (a missing
    dependency, a stack trace, the kit's warning)."""
    counted = ", ".join(f"{kind} x{n}" for kind, n in faults.items())
    console.print(
        f"\n[yellow]seat {seat} ({entry}): {termination}[/] ({counted or 'no strikes'});"
        f" the end of its log, {log_path}:"
    )
    try:
        lines = Path(log_path).read_text(errors="replace").strip().splitlines()[-8:]
    except OSError as exc:
        lines = [f"(unreadable: {exc})"]
    for line in lines:
        console.print(f"  {line}", markup=False, highlight=False)
