"""A contest final's size (`bench final`): the games two independent finals of a simulated
field need to agree, and the wall time per 1,000 games of a real final on this machine."""

from __future__ import annotations

import time
from typing import Any


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

    from referee import run_loop
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
