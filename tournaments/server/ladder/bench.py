"""The ladder's throughput beside `bench tournament`'s, in one run on the same kind of field.

`entries` participants each have one version: the random reference bot, uploaded as an archive
(a bot.py in its own folder, as a participant's bot is). The ladder worker plays `games` ranked
games after a warm-up (every version's first games: process start-up is not the ladder's
steady state), with matchmaking, the database and ratings in the loop; then `bench tournament`'s
own function plays the same number on a round-robin of as many random bots. Validation is left
out (its cost is per upload, not per game).
"""

from __future__ import annotations

import time
from typing import Any

from referee import run_loop


def run_ladder_bench(
    games: int, concurrency: int, entries: int, isolation: str | None = None
) -> dict[str, Any]:
    """Needs Django set up on a fresh data folder (the command does it)."""
    from tournaments.benchmarks.tournament import run_bench
    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.models import Game
    from tournaments.server.ladder.standings import enter
    from tournaments.server.ladder.worker import LadderWorker
    from tournaments.server.runtime import migrate, reference_archive
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version

    migrate()
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
    bots already on the ladder: `uploads` new participants upload one after the other (each
    once the previous one has played), the worker validating and playing throughout."""
    import statistics
    import threading

    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.models import Seat
    from tournaments.server.ladder.standings import enter
    from tournaments.server.ladder.worker import LadderWorker
    from tournaments.server.runtime import migrate, reference_archive
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version

    migrate()
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


def run_final_bench(
    teams: int,
    staff: int,
    players: int,
    max_per_entry: int,
    target: float,
    real_games: int,
    concurrency: int,
    isolation: str | None = None,
) -> dict[str, Any]:
    """How many games a contest's final needs, and what they cost here.

    Stability: two independent adaptive finals of the same simulated field (`teams` + `staff`
    entries; `benchmarks.schedule.stability`, the simulation `bench schedule` uses) until the
    Kendall tau between their standings reaches `target`. Cost: a real final (the tournament
    machinery, random bots) of `real_games` games, timed, per 1,000 games."""
    import tempfile
    from pathlib import Path

    from tournaments.benchmarks.schedule import stability
    from tournaments.benchmarks.tournament import bench_entries
    from tournaments.store import Store
    from tournaments.tournament import TournamentConfig, prepare, run_tournament

    entries = teams + staff
    curve = stability(
        "adaptive",
        entries,
        entries * max_per_entry // players * players,
        players,
        seed=1,
        checkpoints=40,
        min_games=players,
    )
    reach = next((k for k, between, _ in curve if between >= target), None)
    field = bench_entries(max(players * 3, 6))
    config = TournamentConfig(
        entries=field,
        players=players,
        time_per_move=0.2,
        schedule="adaptive",
        games=real_games // players * players,
        min_games=1,
        isolation=isolation,
    )
    with (
        tempfile.TemporaryDirectory(prefix="azul-final-bench-") as tmp,
        Store.open(Path(tmp) / "final.sqlite") as store,
    ):
        config, games = prepare(store, config)
        began = time.perf_counter()
        summary = run_loop(
            run_tournament(
                store, config, games, concurrency=concurrency, log_dir=Path(tmp) / "logs"
            )
        )
        wall = time.perf_counter() - began
    return {
        "entries": entries,
        "teams": teams,
        "staff_bots": staff,
        "players": players,
        "target_tau": target,
        "games_for_target": reach,
        "games_per_entry_for_target": (reach * players / entries) if reach else None,
        "stability": [
            {"games": k, "tau_between_finals": b, "tau_with_truth": t} for k, b, t in curve
        ],
        "real_games": summary.played,
        "real_failed": summary.failed,
        "real_isolation": config.isolation,
        "concurrency": concurrency,
        "real_wall_s": wall,
        "wall_s_per_1000_games": 1000 * wall / summary.played if summary.played else None,
        "final_wall_s_estimate": (wall / summary.played * reach)
        if summary.played and reach
        else None,
    }
