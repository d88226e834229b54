"""`azul-arena bot compare NEW BASE`: did my change help? A sequential test (GSPRT) of NEW
against BASE on duplicate pairs (tournaments/domain/compare.py, tournaments/domain/sprt.py),
resumable in a tournament store, with a live view and `--json`."""

from __future__ import annotations

import contextlib
import os
import re
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tournaments.commands.common import (
    DATA_DIR,
    ClusterSecurity,
    Exit,
    check_clock,
    check_isolation,
    cluster_options,
    console,
    err_console,
    fail,
    isolation_line,
    leave_interrupted,
    print_json,
    reading_store,
    running_store,
)
from tournaments.commands.groups import bot_app
from tournaments.commands.match_options import match_options
from tournaments.domain.settings import MatchSettings

if TYPE_CHECKING:
    from rich.console import Console

    from tournaments.domain.cluster import ClusterOptions
    from tournaments.domain.compare import CompareRounds, CompareSpec
    from tournaments.domain.runner import RunSummary
    from tournaments.domain.schedule import ScheduledGame
    from tournaments.domain.store import Store
    from tournaments.domain.tournament import TournamentConfig

ENTRY_HELP = (
    "a built-in (with parameters: mcts:iterations=200), path/bot.py[:Class], a bot folder "
    "or a quoted command line"
)


def default_db(new: str, base: str) -> Path:
    """Where a compare is stored unless --db says: one file per pair of entries."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{new}-vs-{base}")[:120]
    return DATA_DIR / "compare" / f"{safe}.db"


def entry_names(new: str, base: str, players: int, fill: str) -> list[str]:
    """The entries as NAME=SPEC: NEW and BASE (told apart when their names are the same:
    `greedy greedy` is greedy-new against greedy-base) and the fillers fill1, fill2."""
    from tournaments.domain.entries import EntryError, parse_entry

    try:
        a, b = parse_entry(new), parse_entry(base)
    except EntryError as exc:
        fail(str(exc))
    names = [a.name, b.name]
    if a.name == b.name:
        names = [f"{a.name}-new", f"{b.name}-base"]
    fillers = [f"fill{i}" for i in range(1, players - 1)]
    if set(fillers) & set(names):
        fail(f"the entries may not be named {' or '.join(fillers)}: those are the fillers' names")
    return [f"{names[0]}={a.spec}", f"{names[1]}={b.spec}", *(f"{f}={fill}" for f in fillers)]


@bot_app.command("compare")
@match_options("ruleset", "time_per_move", "clock", "fault_policy", "isolation")
def compare(  # a run's options, as tournament run has them
    new: Annotated[str, typer.Argument(metavar="NEW", help=f"The changed bot: {ENTRY_HELP}.")],
    base: Annotated[str, typer.Argument(metavar="BASE", help="The bot it should beat: likewise.")],
    elo0: Annotated[float, typer.Option(help="H0: NEW is this many Elo stronger (or less).")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1: NEW is at least this many Elo stronger.")] = 20.0,
    alpha: Annotated[float, typer.Option(help="The chance of accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(help="The chance of accepting H0 when H1 holds.")] = 0.05,
    max_games: Annotated[
        int,
        typer.Option(min=2, help="Stop undecided after this many games (pairs of 2)."),
    ] = 2000,
    fill: Annotated[
        str,
        typer.Option(
            help="3-4 players: the entry in the other seats (the same in both games of a pair)."
        ),
    ] = "greedy",
    statistic: Annotated[
        str,
        typer.Option(
            help="What the test decides on: wdl (who ranked higher) or margin (the points "
            "between them; docs/improving.md 'Did my change help?')."
        ),
    ] = "wdl",
    players: Annotated[int, typer.Option(min=2, max=4, help="Players per game: 2, 3 or 4.")] = 2,
    seed: Annotated[
        int | None, typer.Option(help="Decides every deal (default: random, stored in the db).")
    ] = None,
    concurrency: Annotated[
        int, typer.Option(min=1, help="Games at once (default: the number of cores).")
    ] = os.cpu_count() or 1,
    cluster: Annotated[
        str | None,
        typer.Option("--cluster", metavar="tls://HOST:8786", help="Play on this Dask scheduler."),
    ] = None,
    cluster_security: ClusterSecurity = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, metavar="N", help="A Dask LocalCluster of N workers."),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(help="Store (default arena-data/compare/NEW-vs-BASE.db); rerun to resume."),
    ] = None,
    log_dir: Annotated[
        Path | None, typer.Option(help="Folder for the bots' logs (default: next to the db).")
    ] = None,
    memory: Annotated[str | None, typer.Option(help="Memory limit per bot (512M, 2G).")] = None,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="One JSON object: verdict (H1|H0|inconclusive), llr, bounds, games, pairs, "
            "wins, draws, losses, elo, elo_ci, pair_outcomes, games_played, statistic, margin, "
            "margin_sd, pair_correlation, wdl_elo, wdl_elo_ci, db, seed.",
        ),
    ] = False,
    plain: Annotated[bool, typer.Option(help="Plain progress lines even on a terminal.")] = False,
    *,
    match: MatchSettings,
) -> None:
    """Did my change help? Play NEW against BASE in duplicate pairs (one deal twice, the seats
    swapped) until a sequential probability ratio test decides: H1 (NEW is --elo1 stronger) or
    H0 (it is no more than --elo0 stronger), with error rates --alpha and --beta.

    Example: [bold]azul-arena bot compare ./mybot ./mybot-v1 --time-per-move 0.2[/]

    Or: [bold]azul-arena bot compare mcts:iterations=400 mcts --players 3 --fill greedy --json[/]

    Interrupted, it resumes when run again (the same store, the same deals). Exit codes: 0 H1
    accepted, 1 H0 accepted or undecided (or games failed: rerun), 2 bad arguments.
    """
    from tournaments.domain.compare import STATISTICS, CompareSpec
    from tournaments.domain.sprt import SprtSettings

    settings = SprtSettings(elo0, elo1, alpha, beta)
    if settings.problems():
        fail("; ".join(settings.problems()))
    if statistic not in STATISTICS:
        fail(f"--statistic is one of {', '.join(STATISTICS)}, not {statistic!r}")
    if cluster is not None and workers is not None:
        fail("give --cluster (a running Dask scheduler) or --workers (a local cluster), not both")
    texts = entry_names(new, base, players, fill)
    config = _config(texts, match, players, seed, memory)
    spec = CompareSpec(
        config.entries[0].name,
        config.entries[1].name,
        settings,
        max_games - max_games % 2,
        fill if players > 2 else None,
        statistic,
    )
    remote = cluster_options(cluster, workers, concurrency, cluster_security)
    path = db or default_db(spec.new, spec.base)
    out = err_console if json_out else console
    result = _run(
        path, config, spec, concurrency, out, log_dir or path.parent / "logs", not plain, remote
    )
    if json_out:
        print_json(
            {**result, "db": str(path), "seed": config.seed, "new": spec.new, "base": spec.base}
        )
    raise typer.Exit(int(Exit.OK if result["verdict"] == "H1" else Exit.FAILED))


def _config(
    texts: list[str], match: MatchSettings, players: int, seed: int | None, memory: str | None
) -> TournamentConfig:
    """The compare's tournament config, every option checked as `tournament run` checks it."""
    from tournaments.commands.tournament import RunRequest

    request = RunRequest(
        entries=texts,
        entries_file=None,
        match=match,
        option=[],
        wild=None,
        players=players,
        games_per_pairing=None,
        seed=seed,
        gauntlet=None,
        schedule="round-robin",
        games=None,
        rounds=None,
        min_games=None,
        memory=memory,
    )
    return request.config()


def _run(
    db: Path,
    config: TournamentConfig,
    spec: CompareSpec,
    concurrency: int,
    out: Console,
    log_dir: Path,
    live: bool,
    cluster: ClusterOptions | None,
) -> dict[str, Any]:
    """Open (or resume) the compare in `db`, play until it is decided, print where it stands;
    the result as `--json` has it. Failed games leave it undecided (rerun to retry)."""
    from tournaments.domain.compare import prepare_compare
    from tournaments.domain.schedule import ScheduleError
    from tournaments.domain.tournament import ConfigMismatch
    from tournaments.terminal.compare_view import result_table, summary_line

    with contextlib.ExitStack() as stack:
        store = running_store(stack, db)
        try:
            with reading_store(db, data_errors=False):
                try:
                    rounds, pending = prepare_compare(store, config, spec, concurrency)
                except (ConfigMismatch, ScheduleError) as exc:
                    fail(str(exc))
                _say_what_runs(out, db, store, config, spec)
                summary = (
                    _play(
                        store,
                        config,
                        spec,
                        rounds,
                        pending,
                        concurrency,
                        out,
                        log_dir,
                        live,
                        cluster,
                    )
                    if pending
                    else None
                )
                if summary is not None and summary.interrupted:
                    leave_interrupted(summary.interrupted, db)
                result = rounds.fold().result()
        except KeyboardInterrupt:
            leave_interrupted(int(signal.SIGINT), db)
    out.print(result_table(spec, result, rounds.tally.played))
    out.print(summary_line(result), highlight=False)
    if summary is not None and (summary.failed or summary.aborted):
        err_console.print(
            f"[red]{summary.failed} game(s) failed[/]; rerun the same command to retry them"
        )
        for game_id, error in summary.errors[:5]:
            err_console.print(f"  {game_id}: {error}", markup=False)
    elif not result.decided:
        out.print(
            f"undecided after {spec.max_games} games: raise --max-games (and rerun) to go on, "
            "or accept that the difference is small"
        )
    return result.to_json()


def _say_what_runs(
    out: Console, db: Path, store: Store, config: TournamentConfig, spec: CompareSpec
) -> None:
    from tournaments.commands.tournament import describe_rules

    done, _ = store.counts()
    out.print(
        f"compare in [bold]{db}[/]: {spec.new} (new) vs {spec.base} (base), "
        f"{describe_rules(config.to_json())}, seed {config.seed}"
        + (f"; resuming, {done} games already played" if done else ""),
        highlight=False,
    )
    line = isolation_line(str(config.match.isolation))
    out.print(line, highlight=False)
    check_isolation(config.match.isolation)
    check_clock(str(config.match.clock))
    store.set_meta("isolation_line", line)


def _play(
    store: Store,
    config: TournamentConfig,
    spec: CompareSpec,
    rounds: CompareRounds,
    pending: list[ScheduledGame],
    concurrency: int,
    out: Console,
    log_dir: Path,
    live: bool,
    cluster: ClusterOptions | None,
) -> RunSummary:
    from referee import run_loop
    from tournaments.domain.cluster import ClusterError
    from tournaments.domain.entries import EntryError
    from tournaments.domain.tournament import run_tournament
    from tournaments.terminal.compare_view import CompareProgress
    from tournaments.terminal.running import until_signal

    watcher = CompareProgress(out, spec, plain=None if live else True)
    try:
        return run_loop(
            until_signal(
                run_tournament(
                    store,
                    config,
                    pending,
                    concurrency=concurrency,
                    on_progress=watcher,
                    log_dir=log_dir,
                    cluster=cluster,
                    rounds=rounds,
                )
            )
        )
    except (ClusterError, EntryError) as exc:
        fail(str(exc))
