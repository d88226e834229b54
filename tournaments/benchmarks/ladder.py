"""The contest server's ladder: its throughput beside `bench tournament`'s, in one run on the
same kind of field (`bench ladder`), and the time from an upload to its first ranked game
(`bench upload`). Each on a fresh server of its own (`server.fresh_server`).

`entries` participants each have one version: the random reference bot, uploaded as an archive
(a bot.py in its own folder, as a participant's bot is). The ladder worker plays `games` ranked
games after a warm-up (every version's first games: process start-up is not the ladder's
steady state), with matchmaking, the database and ratings in the loop; then `bench tournament`'s
own function plays the same number on a round-robin of as many random bots. Validation is left
out (its cost is per upload, not per game). `run_ladder_bench_both` measures it on SQLite and
on PostgreSQL in one run, each half in a process of its own.
"""

from __future__ import annotations

import time
from typing import Any

from referee import run_loop
from tournaments.benchmarks.server import BenchError, database_vendor, fresh_server


def run_ladder_bench(
    games: int,
    concurrency: int,
    entries: int,
    isolation: str | None = None,
    database_url: str | None = None,
) -> dict[str, Any]:
    """The ladder's games/s on a fresh server (on the empty database at `database_url`, else
    SQLite), and the ratio to `bench tournament`'s on as many random bots."""
    with fresh_server("azul-ladder-bench-", database_url):
        return _ladder_bench(games, concurrency, entries, isolation) | {
            "database": database_vendor()
        }


def _ladder_bench(
    games: int, concurrency: int, entries: int, isolation: str | None
) -> dict[str, Any]:
    from tournaments.benchmarks.tournament import run_bench
    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.models import Game
    from tournaments.server.ladder.standings import enter
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version
    from tournaments.server.submissions.services import reference_archive
    from tournaments.server.worker.loop import LadderWorker

    archive = reference_archive("random")
    for i in range(entries):
        who = Participant.objects.create(name=f"bench-{i + 1}")
        version = submit(who, [archive])
        Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
        enter(version)
    warm = max(entries, 2 * concurrency)
    marks: list[float] = []

    def on_game(game_id: int) -> None:
        marks.append(time.perf_counter())

    worker = LadderWorker(
        concurrency=concurrency,
        isolation=isolation,
        max_games=warm + games,
        validate=False,
        on_game=on_game,
    )
    began = time.perf_counter()
    stats = run_loop(worker.run())
    measured = len(marks) - warm
    elapsed = marks[-1] - marks[warm - 1] if measured > 0 else float("nan")
    ladder = measured / elapsed if measured > 0 and elapsed > 0 else 0.0
    failed = Game.objects.filter(status=Game.FAILED).count()
    tournament = run_bench(games, concurrency, entries_count=entries, isolation=isolation)
    return {
        "entries": entries,
        "concurrency": concurrency,
        "games": measured,
        "warmup_games": warm,
        "isolation": tournament["isolation"],
        "ladder_games_per_s": ladder,
        "ladder_elapsed_s": elapsed,
        "ladder_total_s": time.perf_counter() - began,
        "ladder_infrastructure_failures": stats.infrastructure_failures + failed,
        "tournament_games_per_s": tournament["games_per_s"],
        "ratio": ladder / tournament["games_per_s"] if tournament["games_per_s"] else 0.0,
    }


def run_upload_bench(
    participants: int,
    uploads: int,
    concurrency: int,
    isolation: str | None = None,
    timeout: float = 600,
) -> dict[str, Any]:
    """Time from upload to the new version's first ranked game, with `participants` random
    bots already on the ladder of a fresh server: `uploads` new participants upload one after
    the other (each once the previous one has played), the worker validating and playing
    throughout."""
    with fresh_server("azul-upload-bench-"):
        return _upload_bench(participants, uploads, concurrency, isolation, timeout)


def _upload_bench(
    participants: int, uploads: int, concurrency: int, isolation: str | None, timeout: float
) -> dict[str, Any]:
    import statistics
    import threading

    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.models import Seat
    from tournaments.server.ladder.standings import enter
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version
    from tournaments.server.submissions.services import reference_archive
    from tournaments.server.worker.loop import LadderWorker

    archive = reference_archive("random")
    for i in range(participants):
        who = Participant.objects.create(name=f"field-{i + 1}")
        version = submit(who, [archive])
        Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
        enter(version)
    worker = LadderWorker(concurrency=concurrency, isolation=isolation)
    thread = threading.Thread(target=lambda: run_loop(worker.run()), name="ladder")
    thread.start()
    waits: list[float] = []
    validations: list[float] = []
    try:
        # The field's first games first: every process started, the ladder in its stride.
        deadline = time.monotonic() + timeout
        while (
            Seat.objects.filter(rank__isnull=False).values("version").distinct().count()
            < participants
            and time.monotonic() < deadline
        ):
            time.sleep(0.5)
        for i in range(uploads):
            who = Participant.objects.create(name=f"newcomer-{i + 1}")
            began = time.monotonic()
            version = submit(who, [archive])
            validated = None
            while time.monotonic() < deadline:
                if (
                    validated is None
                    and Version.objects.filter(pk=version.pk, state=Version.PASSED).exists()
                ):
                    validated = time.monotonic() - began
                if Seat.objects.filter(version=version, rank__isnull=False).exists():
                    waits.append(time.monotonic() - began)
                    validations.append(validated or waits[-1])
                    break
                time.sleep(0.1)
    finally:
        worker.stop_from_thread()
        thread.join(timeout=120)
    waits.sort()
    return {
        "participants": participants,
        "uploads": len(waits),
        "concurrency": concurrency,
        "upload_to_first_game_s": [round(w, 2) for w in waits],
        "p50_s": statistics.median(waits) if waits else None,
        "p95_s": waits[min(len(waits) - 1, int(0.95 * len(waits)))] if waits else None,
        "validation_s_mean": statistics.mean(validations) if validations else None,
    }


def run_ladder_bench_both(
    games: int,
    concurrency: int,
    entries: int,
    isolation: str | None = None,
    database_url: str | None = None,
) -> dict[str, Any]:
    """`run_ladder_bench` on SQLite, then on PostgreSQL (the empty database at `database_url`,
    else a throwaway server started here), each in a process of its own (`bench ladder
    --json`), and their ratio. BenchError when a half fails or no PostgreSQL can be had."""
    import contextlib

    from tournaments.server import postgres

    if database_url is None and postgres.missing():
        raise BenchError(f"no PostgreSQL server: give --database-url, or: {postgres.missing()}")
    halves = [str(x) for x in ("--games", games, "-c", concurrency, "--entries", entries)]
    halves += ["--isolation", isolation] if isolation else []
    with contextlib.ExitStack() as stack:
        # PostgreSQL as a department runs it: fsync on (not the tests' -F).
        url = database_url or stack.enter_context(postgres.server(durable=True))
        sqlite_half = _half(halves, None)
        postgresql_half = _half(halves, url)
    speed = postgresql_half["ladder_games_per_s"] / sqlite_half["ladder_games_per_s"]
    # Each half's ratio to bench tournament, run beside it, takes out the machine's load as
    # it was during that half.
    normalised = postgresql_half["ratio"] / sqlite_half["ratio"] if sqlite_half["ratio"] else 0.0
    return {
        "sqlite": sqlite_half,
        "postgresql": postgresql_half,
        "postgresql_over_sqlite": speed,
        "postgresql_over_sqlite_normalised": normalised,
        "postgresql_server": "given" if database_url else "throwaway (initdb, pg_ctl)",
    }


def _half(options: list[str], url: str | None) -> dict[str, Any]:
    """One database's half of `run_ladder_bench_both`, in a process of its own."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "-m", "tournaments.cli", "bench", "ladder", "--json", *options]
    command += ["--database-url", url] if url else []
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        raise BenchError(
            f"the {'PostgreSQL' if url else 'SQLite'} half failed: {run.stderr.strip()[-2000:]}"
        )
    return dict(json.loads(run.stdout))
