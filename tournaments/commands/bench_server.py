"""`azul-arena bench ladder / upload / pages / term / final`: the contest server's benchmarks
(tournaments/benchmarks/ladder.py, pages.py, term.py, final.py), each on a fresh server of its
own. They were `server bench`, `server bench-upload`, `server bench-pages` and `server
bench-final`; those spellings still work, hidden (tournaments/commands/server/__init__.py)."""

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
from tournaments.commands.groups import bench_app

Concurrency = Annotated[int, typer.Option("--concurrency", "-c", min=1)]
Isolation = Annotated[str | None, typer.Option("--isolation", help=ISOLATION_HELP)]
Json = Annotated[bool, typer.Option("--json", help="one JSON object on stdout")]


@bench_app.command("ladder")
def bench_ladder(
    games: Annotated[int, typer.Option("--games", min=1, help="games measured on each side")] = 200,
    concurrency: Concurrency = 2,
    entries: Annotated[
        int, typer.Option("--entries", min=2, help="participants (random bots)")
    ] = 16,
    isolation: Isolation = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="postgresql://...",
            help="an empty database to run the ladder on (default: a fresh SQLite file); "
            "compare PostgreSQL with SQLite through each run's ratio to bench tournament",
        ),
    ] = None,
    both: Annotated[
        bool,
        typer.Option(
            "--both",
            help="SQLite and PostgreSQL in one run, one after the other, and their ratio; "
            "PostgreSQL: --database-url, else a throwaway server started here (initdb, pg_ctl)",
        ),
    ] = False,
    as_json: Json = False,
) -> None:
    """Ladder throughput: games/s of the contest server's ladder worker on ENTRIES
    participants' random bots (matchmaking, database, ratings included) beside `bench
    tournament` on as many random bots, in the same run. A benchmark that prints its figures,
    not a test.

    Example: [bold]azul-arena bench ladder --entries 16 --games 200 --concurrency 2[/]
    (PostgreSQL against SQLite: [bold]azul-arena bench ladder --both --json[/])
    """
    from tournaments.benchmarks.ladder import run_ladder_bench, run_ladder_bench_both
    from tournaments.server import postgres

    level = check_isolation(isolation)
    if both and database_url is None and postgres.missing():
        fail(f"--both needs a PostgreSQL server: give --database-url, or: {postgres.missing()}")
    run = run_ladder_bench_both if both else run_ladder_bench
    result = _measured(run, games, concurrency, entries, level, database_url)
    if as_json:
        print_json(result)
        return
    if not both:
        console.print(_ladder_line(result, entries, concurrency), highlight=False)
        return
    for half in ("sqlite", "postgresql"):
        console.print(_ladder_line(result[half], entries, concurrency), highlight=False)
    console.print(
        f"PostgreSQL / SQLite: {result['postgresql_over_sqlite']:.2f} (each against its bench "
        f"tournament: {result['postgresql_over_sqlite_normalised']:.2f})",
        highlight=False,
    )


def _measured(run: Any, *args: Any) -> dict[str, Any]:
    """`run(*args)`; a server that cannot be set up (exit 2) or a benchmark that could not be
    measured (exit 1) said as an error."""
    from tournaments.benchmarks.server import BenchError

    try:
        return dict(run(*args))
    except BenchError as exc:
        fail(str(exc), Exit.FAILED)
    except ValueError as exc:
        fail(str(exc))


def _ladder_line(result: dict[str, Any], entries: int, concurrency: int) -> str:
    return (
        f"ladder ({result['database']}): {result['ladder_games_per_s']:.1f} games/s "
        f"({result['games']} games, {entries} participants, concurrency "
        f"{concurrency}, isolation {result['isolation']}); bench tournament: "
        f"{result['tournament_games_per_s']:.1f} games/s; ratio "
        f"{result['ratio']:.2f}"
    )


@bench_app.command("upload")
def bench_upload(
    participants: Annotated[
        int, typer.Option("--participants", min=2, help="random bots already on the ladder")
    ] = 50,
    uploads: Annotated[
        int, typer.Option("--uploads", min=1, help="newcomers, one after the other")
    ] = 5,
    concurrency: Concurrency = 2,
    isolation: Isolation = None,
    as_json: Json = False,
) -> None:
    """Time from upload to a new version's first ranked game on the contest server
    (validation included), with PARTICIPANTS random bots on the ladder: p50 and p95 over
    UPLOADS newcomers.

    Example: [bold]azul-arena bench upload --participants 50 --uploads 5[/]
    """
    from tournaments.benchmarks.ladder import run_upload_bench

    level = check_isolation(isolation)
    result = _measured(run_upload_bench, participants, uploads, concurrency, level)
    if as_json:
        print_json(result)
        return
    console.print(
        f"upload to first ranked game, {participants} participants on the ladder: "
        f"p50 {result['p50_s']:.1f} s, p95 {result['p95_s']:.1f} s over "
        f"{result['uploads']} uploads (validation {result['validation_s_mean']:.1f} s "
        f"of it on average)",
        highlight=False,
    )


@bench_app.command("pages")
def bench_pages(
    participants: Annotated[int, typer.Option("--participants", min=2)] = 300,
    games: Annotated[
        int, typer.Option("--games", min=1, help="finished games in the database")
    ] = 100_000,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="requests per page")] = 60,
    as_json: Json = False,
) -> None:
    """Render times (p50, p95) of the contest server's leaderboard and of participants' pages
    on a database of PARTICIPANTS participants and GAMES finished games, built for the run (no
    bot plays).

    Example: [bold]azul-arena bench pages --participants 300 --games 100000[/]
    """
    from tournaments.benchmarks.pages import run_page_bench

    result = _measured(run_page_bench, participants, games, rounds)
    if as_json:
        print_json(result)
        return
    console.print(
        f"{participants} participants, {games} games (built in {result['build_s']:.0f} s)",
        highlight=False,
    )
    for page in ("leaderboard", "participant"):
        t = result[page]
        console.print(
            f"  {page}: p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms, max "
            f"{t['max_ms']:.1f} ms ({t['requests']} requests)",
            highlight=False,
        )


@bench_app.command("term")
def bench_term(
    participants: Annotated[
        int, typer.Option("--participants", min=2, help="students (one team each)")
    ] = 300,
    minutes: Annotated[
        float, typer.Option("--minutes", min=0.1, help="how long the ladder plays")
    ] = 30.0,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="ladder worker processes (server ladder)")
    ] = 2,
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-c", min=1, help="games at once in each worker")
    ] = 2,
    page_rate: Annotated[
        float,
        typer.Option(
            "--page-rate",
            min=0.1,
            help="page requests a second while it runs (front, participant, game in turn)",
        ),
    ] = 6.0,
    graded_games: Annotated[
        int,
        typer.Option(
            "--final-graded-games", min=2, help="the graded final's games against each staff bot"
        ),
    ] = 4,
    ranking_games: Annotated[
        int,
        typer.Option("--final-ranking-games", min=0, help="then each team's among the teams"),
    ] = 4,
    time_per_move: Annotated[float, typer.Option("--time-per-move", "-t", min=0.01)] = 0.2,
    isolation: Isolation = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            metavar="postgresql://...",
            help="an empty database for the server (default: a fresh SQLite file)",
        ),
    ] = None,
    home: Annotated[
        Path | None,
        typer.Option(
            "--home", help="a new folder for the server's data, kept (default: a temporary one)"
        ),
    ] = None,
    as_json: Json = False,
) -> None:
    """A simulated term on a real server: PARTICIPANTS students imported from a class CSV,
    one upload each over HTTP (the random bot), a ladder played by WORKERS `server ladder`
    processes for MINUTES while pages are asked for through the site's web server (gunicorn,
    as `server run` serves it), then the deadline and a graded final against two staff bots.
    Prints the games and their rate, each page's p50 and p95, what was lost (should be
    nothing) and the disk used per 10,000 games. Takes MINUTES and then the final.

    Example: [bold]azul-arena bench term --participants 300 --minutes 30 --workers 2 --json[/]
    """
    from tournaments.benchmarks.term import TermPlan, run_term_bench

    plan = TermPlan(
        participants=participants,
        minutes=minutes,
        workers=workers,
        concurrency=concurrency,
        page_rate=page_rate,
        graded_games=graded_games,
        ranking_games=ranking_games,
        time_per_move=time_per_move,
        isolation=check_isolation(isolation),
        database_url=database_url,
        home=home,
    )
    result = _measured(run_term_bench, plan)
    if as_json:
        print_json(result)
        return
    _print_term(result)


def _print_term(result: dict[str, Any]) -> None:
    """`bench term`'s figures, a few lines."""
    ladder, final, lost = result["ladder"], result["final"], result["lost"]
    setup, per = result["setup"], result["per_10000_games"]
    lines = [
        f"{result['participants']} participants, {result['workers']} workers x "
        f"{result['concurrency']} games, {result['database']}, {result['cpus']} CPUs, load average "
        f"{result['load_average']['mean']:.1f} (max {result['load_average']['max']:.1f})",
        f"class import {setup['class_import_s']:.1f} s; {setup['uploads']['requests']} uploads "
        f"(p95 {setup['uploads']['p95_ms'] or 0:.0f} ms) done in {setup['uploads_done_s']:.0f} s"
        f", all validated after {setup['all_validated_s'] or float('nan'):.0f} s",
        f"ladder: {ladder['games']} games in {ladder['wall_s'] / 60:.1f} min, "
        f"{ladder['games_per_minute']:.0f} a minute",
        f"final (graded, {final['entries']} entries): {final['games']} games in "
        f"{final['wall_s'] / 60:.1f} min",
    ]
    phases = {
        "validation": "the uploads are validated",
        "ladder": "the ladder plays",
        "final": "the final plays",
        "quiet": "nothing plays",
    }
    for phase, when in phases.items():
        lines.append(
            f"pages while {when}: "
            + "; ".join(
                f"{kind} p50 {t['p50_ms'] or 0:.0f} ms, p95 {t['p95_ms'] or 0:.0f} ms "
                f"({t['requests']})"
                for kind, t in result["pages"][phase].items()
            )
        )
    lost_counts = {k: v for k, v in lost.items() if k != "versions_uploaded" and v}
    lines.append(f"lost: {lost_counts or 'nothing'}")
    lines.append(
        f"disk per 10,000 games: records {per['records_mb']} MB, database {per['database_mb']} "
        f"MB, seat logs {per['seat_logs_mb']} MB in {per['seat_log_files']} files "
        f"({per['seat_logs_allocated_mb']} MB on disk), process logs {per['process_logs_mb']} MB;"
        f" a final's {per['final_mb']} MB"
    )
    for line in lines:
        console.print(line, highlight=False, markup=False)


@bench_app.command("final")
def bench_final(
    teams: Annotated[
        int | None,
        typer.Option("--teams", min=2, help="300 by default; 24 with --cluster-speedup"),
    ] = None,
    staff: Annotated[int, typer.Option("--staff", min=0, help="staff bots in the final")] = 3,
    players: Annotated[int, typer.Option("--players", min=2, max=4)] = 2,
    max_per_entry: Annotated[
        int,
        typer.Option("--max-games-per-entry", min=1, help="how far the simulated finals go"),
    ] = 150,
    target: Annotated[
        float,
        typer.Option(
            "--target", min=0.0, max=1.0, help="Kendall tau between two independent finals"
        ),
    ] = 0.9,
    real_games: Annotated[
        int, typer.Option("--real-games", min=2, help="games of the real final that is timed")
    ] = 60,
    concurrency: Concurrency = 2,
    isolation: Isolation = None,
    grading: Annotated[
        bool,
        typer.Option(
            "--grading",
            help="only the grading table: games per pairing vs the Wilson interval against "
            "a staff bot, and the final's games for classes of 10, 30 and --teams as a "
            "round-robin, graded and adaptive (no games played; --seconds-per-game for the "
            "wall time)",
        ),
    ] = False,
    seconds_per_game: Annotated[
        float,
        typer.Option("--seconds-per-game", min=0.0, help="with --grading: one game's wall time"),
    ] = 30.0,
    ranking_games: Annotated[
        int,
        typer.Option(
            "--final-ranking-games",
            min=0,
            help="with --grading: a graded final's games per team among the teams",
        ),
    ] = 10,
    min_games: Annotated[
        int,
        typer.Option(
            "--final-min-games", min=1, help="with --grading: an adaptive final's games per entry"
        ),
    ] = 30,
    cluster_speedup: Annotated[
        bool,
        typer.Option(
            "--cluster-speedup",
            help="only the cluster's speed-up: a real contest of --teams teams whose bots "
            "sleep --move-sleep s a move, its final played on 1 Dask worker, on --workers "
            "and on this machine alone; wall times, their ratio, whether the standings agree",
        ),
    ] = False,
    workers: Annotated[
        int, typer.Option("--workers", min=2, help="with --cluster-speedup: Dask workers")
    ] = 4,
    move_sleep: Annotated[
        float,
        typer.Option(
            "--move-sleep", min=0.0, help="with --cluster-speedup: seconds a bot sleeps a move"
        ),
    ] = 0.02,
    games_per_pairing: Annotated[
        int,
        typer.Option(
            "--games-per-pairing",
            min=1,
            help="with --cluster-speedup: the round-robin final's games per pair",
        ),
    ] = 1,
    as_json: Json = False,
) -> None:
    """A contest final's size: the games two independent finals of a simulated field need
    to agree (Kendall tau >= TARGET, the simulation of `bench schedule`), and the wall time
    per 1,000 games of a real final (random bots) on this machine. Prints its figures. With
    --grading: how many games per pairing a grading rule needs, and what a round-robin, a
    graded and an adaptive final of that many games cost (docs/course.md).

    With --cluster-speedup: what a Dask cluster gains on a contest's final, the same final
    played on 1 worker, on --workers and without Dask (tournaments/benchmarks/final_cluster.py).

    Example: [bold]azul-arena bench final --teams 300 --staff 3 --json[/],
    [bold]azul-arena bench final --grading --teams 60 --staff 2[/],
    [bold]azul-arena bench final --cluster-speedup --teams 24 --workers 4 --json[/]
    """
    from tournaments.benchmarks.final import grading_table, run_final_bench

    if cluster_speedup:
        _cluster_speedup(teams or 24, workers, move_sleep, games_per_pairing, isolation, as_json)
        return
    teams = teams or 300
    if grading:
        table = grading_table(
            sorted({10, 30, teams}),
            [2, 4, 6, 8, 10, 16, 20],
            staff,
            seconds_per_game,
            ranking_games,
            min_games,
        )
        if as_json:
            print_json(table)
        else:
            _print_grading(table)
        return
    level = check_isolation(isolation)
    result = run_final_bench(
        teams, staff, players, max_per_entry, target, real_games, concurrency, level
    )
    if as_json:
        print_json(result)
        return
    reach = result["games_for_target"]
    console.print(
        f"final of {result['entries']} entries ({teams} teams, {staff} staff bots), "
        f"{players}-player games: "
        + (
            f"{reach} games ({result['games_per_entry_for_target']:.0f} per entry) for two "
            f"finals to agree at tau >= {target}"
            if reach
            else f"tau {target} not reached in {max_per_entry} games per entry"
        )
        + f"; a real final here: {result['wall_s_per_1000_games']:.0f} s per 1,000 games "
        f"(random bots, isolation {result['real_isolation']}, concurrency {concurrency})",
        highlight=False,
    )


@bench_app.command("pairing")
def bench_pairing(
    games: Annotated[
        int, typer.Option("--games", min=2, help="ladder games measured once the newcomer is in")
    ] = 120,
    warmup: Annotated[
        int, typer.Option("--warmup", min=0, help="ladder games of the reference bots before")
    ] = 20,
    round_robin: Annotated[
        int,
        typer.Option("--round-robin", min=2, help="games per pair of the reference round-robin"),
    ] = 12,
    time_per_move: Annotated[float, typer.Option("--time-per-move", min=0.01)] = 0.1,
    concurrency: Concurrency = 2,
    isolation: Isolation = None,
    as_json: Json = False,
) -> None:
    """Does the ladder's pairing measure? On `server demo`'s field (random, greedy, search,
    mcts) plus a new version (the `first` bot), after GAMES ladder games: each version's largest
    opponent share over an even split (goal <= 1.5), and the leaderboard's Kendall tau against
    a full round-robin of the same bots (goal >= 0.9). Prints its figures; takes minutes.

    Example: [bold]azul-arena bench pairing --games 120 --json[/]
    """
    from tournaments.benchmarks.pairing import run_pairing_bench

    level = check_isolation(isolation)
    result = _measured(
        run_pairing_bench, games, warmup, round_robin, time_per_move, concurrency, level
    )
    if as_json:
        print_json(result)
        return
    from rich.table import Table

    table = Table(
        title=f"ladder pairing after {result['games']} games (time per move {time_per_move} s)"
    )
    for col in (
        "version",
        "games",
        "largest share / even",
        "leaderboard (mu-3s)",
        "round-robin mean rank",
    ):
        table.add_column(col, justify="left" if col == "version" else "right")
    for name, shares in result["share_over_even"].items():
        table.add_row(
            name,
            str(result["games_per_version"][name]),
            f"{shares:.2f}",
            f"{result['leaderboard'][name]:.1f}",
            f"{result['round_robin_mean_rank'][name]:.2f}",
        )
    console.print(table)
    console.print(
        f"largest opponent share {result['largest_share_over_even']:.2f}x an even split "
        f"(goal <= 1.5); Kendall tau against the round-robin {result['kendall_tau']:.2f} "
        f"(goal >= 0.9)",
        highlight=False,
    )


def _cluster_speedup(
    teams: int,
    workers: int,
    move_sleep: float,
    games_per_pairing: int,
    isolation: str | None,
    as_json: bool,
) -> None:
    """`bench final --cluster-speedup`: run it, print its figures."""
    from tournaments.benchmarks.final_cluster import run_cluster_speedup
    from tournaments.domain.cluster import ClusterError

    level = check_isolation(isolation)
    try:
        result = _measured(
            run_cluster_speedup, teams, workers, move_sleep, games_per_pairing, level
        )
    except ClusterError as exc:
        fail(str(exc), Exit.FAILED)
    if as_json:
        print_json(result)
        return
    agree = (
        "standings and games the same in all three"
        if result["same_standings"] and result["same_games"]
        else f"standings {'the same' if result['same_standings'] else 'NOT the same'} in all "
        f"three, {len(result['differing_games'])} games differ (games with a fault, 1 "
        f"worker / {workers} / this machine: "
        + " / ".join(str(n) for n in result["games_with_a_fault"].values())
        + ")"
    )
    console.print(
        f"final of {teams} teams ({result['games']} games, bots sleeping {move_sleep:g} s a "
        f"move, isolation {result['isolation']}): 1 Dask worker "
        f"{result['one_worker_wall_s']:.1f} s, {workers} workers "
        f"{result['workers_wall_s']:.1f} s, ratio {result['ratio']:.2f}; this machine alone "
        f"({workers} at once) {result['embedded_wall_s']:.1f} s; {agree} (load average "
        f"{result['load_average_before']:.1f} before, {result['load_average_after']:.1f} "
        f"after, {result['cpus']} CPUs)",
        highlight=False,
    )


def _print_grading(table: dict[str, Any]) -> None:
    """The grading table: one row per games-per-pairing, the final's games per class size."""
    from rich.table import Table

    rows = table["rows"]
    sizes = [c["teams"] for c in rows[0]["classes"]]
    out = Table(
        title=f"2-player final, {table['staff_bots']} staff bots, "
        f"{table['seconds_per_game']:g} s per game: games (hours, one at a time) of a "
        f"round-robin and of a graded final ({table['ranking_games_per_team']} games a team "
        f"among the teams)",
        title_justify="left",
    )
    for column in (
        "games per pairing",
        "low bound, all won",
        "width at 50%",
        "win rate for low > 0.5",
    ):
        out.add_column(column, justify="right")
    for t in sizes:
        out.add_column(f"{t} teams: round-robin", justify="right", overflow="fold")
        out.add_column(f"{t} teams: graded", justify="right", overflow="fold")
    for r in rows:
        passing = r["lowest_win_rate_with_low_bound_over_half"]
        out.add_row(
            str(r["games_per_pairing"]),
            f"{r['low_bound_winning_all']:.2f}",
            f"{r['interval_width_at_half']:.2f}",
            f"{passing:.0%}" if passing is not None else "never",
            *(
                cell
                for c in r["classes"]
                for cell in (
                    _cost(c["final_games"], c["wall_s_one_at_a_time"]),
                    _cost(c["graded_games"], c["graded_wall_s_one_at_a_time"]),
                )
            ),
        )
    console.print(out)
    console.print(
        f"adaptive final ({table['adaptive_min_games']} games an entry, no set games against "
        "a staff bot): "
        + ", ".join(
            f"{a['teams']} teams {_cost(a['final_games'], a['wall_s_one_at_a_time'])}"
            for a in table["adaptive"]
        ),
        highlight=False,
    )


def _cost(games: int | None, wall_s: int | None) -> str:
    """Games and hours one at a time, as the grading table shows them; - for none."""
    if games is None or wall_s is None:
        return "-"
    return f"{games:,} ({wall_s / 3600:.1f})"
