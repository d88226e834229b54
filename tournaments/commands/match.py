"""`azul-arena match`: one game between real bot processes through the referee, shown live."""
# ruff: noqa: B008  (typer declares options as argument defaults)

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from referee import run_loop
from tournaments.commands.common import (
    CLOCK_HELP,
    ISOLATION_HELP,
    WILD_ORDER_HELP,
    check_clock,
    check_fault_policy,
    check_isolation,
    check_plays,
    check_ruleset,
    console,
    fail,
    isolation_line,
    print_json,
)
from tournaments.commands.groups import app

if TYPE_CHECKING:
    from referee import MatchConfig, MatchEvent, MatchResult


@app.command("match")
def match(
    entries: list[str] = typer.Argument(
        ...,
        help="2-4 bots: built-in name, path/bot.py[:Class], a bot folder or a quoted command line",
    ),
    ruleset: str = typer.Option("azul", "--ruleset", "-r", help="ruleset name"),
    wild_order: str | None = typer.Option(None, "--wild-order", help=WILD_ORDER_HELP),
    seed: int | None = typer.Option(None, "--seed", "-s", help="seed of the deals"),
    time_per_move: float = typer.Option(
        1.0, "--time-per-move", "-t", min=0.001, help="seconds per move"
    ),
    time_bank: float = typer.Option(
        0.0, "--time-bank", min=0.0, help="time bank per seat, seconds"
    ),
    first_move_allowance: float = typer.Option(
        0.0, "--first-move-allowance", min=0.0, help="extra seconds for a seat's first move"
    ),
    grace: float = typer.Option(0.05, "--grace", min=0.0, help="grace margin, seconds"),
    policy: str = typer.Option(
        "random",
        "--fault-policy",
        "--policy",
        help="on a fault: random (substitute, count a strike) | forfeit",
    ),
    max_strikes: int = typer.Option(
        3, "--max-strikes", min=1, help="strikes before a seat forfeits (policy random)"
    ),
    replay: Path | None = typer.Option(
        None, "--replay", help="replay file (default: azul-arena-replays/<id>.json)"
    ),
    log_dir: Path | None = typer.Option(None, "--log-dir", help="bot logs directory"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
    board: bool = typer.Option(
        False, "--board", help="the table after every move (without: at each new round and phase)"
    ),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    bot_env: list[str] = typer.Option(
        [], "--bot-env", metavar="NAME[=VALUE]", help="a variable every bot gets (repeat it)"
    ),
    memory: str | None = typer.Option(None, "--memory", help="memory limit per bot (512M, 2G)"),
    ponder: bool = typer.Option(
        False, "--ponder", help="bots think on the others' time (default: frozen)"
    ),
    clock: str = typer.Option("wall", "--clock", help=CLOCK_HELP),
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
    options = check_ruleset(ruleset, len(entries), wild_order)
    check_clock(clock)
    level = check_isolation(isolation)
    arena_kwargs = _arena_options(entries, ruleset, level, memory, ponder, bot_env)
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

    async def go():  # type: ignore[no-untyped-def]
        async with Arena(list(dict.fromkeys(entries)), log_dir=log_dir, **arena_kwargs) as arena:
            return await arena.play(list(entries), config, on_event=show)

    try:
        result = run_loop(go())
    except ValueError as exc:
        fail(str(exc))
        return
    path = replay or Path("azul-arena-replays") / f"{result.match_id}.json"
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
    from tournaments.arena import GameSettings, arena_options
    from tournaments.entries import Entry, EntryError, parse_size

    try:
        for entry in entries:
            check_entry(entry)
        check_plays(list(entries), ruleset)
        limit = parse_size(memory, "--memory") if memory else None
        return arena_options(
            [Entry(e, e, limit) for e in dict.fromkeys(entries)],
            GameSettings(isolation=level, ponder=ponder, bot_env=tuple(bot_env)),
        )
    except (EntryError, ValueError) as exc:
        fail(str(exc))
        raise


def _live_view(
    entries: list[str], config: MatchConfig, seed: int, board: bool
) -> Callable[[MatchEvent], None]:
    """What the terminal shows as the game goes: each move in words and the table (the
    watcher replays the game from the same seed), faults, the end."""
    from referee import MatchEnded, MovePlayed, SeatFaulted
    from tournaments.human import TableWatcher

    watcher = TableWatcher(
        console,
        config.ruleset,
        list(entries),
        seed,
        board=board,
        options=config.options,
        rounds=not board,
    )
    watcher.start()

    def show(event: MatchEvent) -> None:
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
    """The final table as the engine draws it, each seat's result, why a seat faulted."""
    from rich.markup import escape
    from rich.table import Table

    from referee.engine import replay as replay_record

    # The final position, as the engine draws it (rebuilt from the record the referee wrote).
    console.print(escape(str(replay_record(result.record))))
    rules = ", ".join(
        [config.ruleset, *(f"{k.replace('_', ' ')} {v}" for k, v in config.options.items())]
    )
    table = Table(
        title=f"match {result.match_id} ({rules}, seed {config.seed}, {config.clock} "
        f"clock, {result.duration:.2f} s)"
    )
    for col in ("seat", "entry", "score", "rank", "termination", "strikes", "moves", "log"):
        table.add_column(col)
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
        if s.termination != "ok" or s.strikes:
            _explain_faults(i, s.entry, s.termination, s.faults, s.log_path)
    console.print(f"replay: {path}")


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
