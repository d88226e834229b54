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
    from tournaments.domain.settings import MatchSettings
    from tournaments.domain.store import Store
    from tournaments.domain.tournament import TournamentConfig, prepare, run_tournament

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
        match=MatchSettings(time_per_move=0.2, isolation=isolation),
        players=players,
        schedule="adaptive",
        games=real_games // players * players,
        min_games=1,
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
        "real_isolation": config.match.isolation,
        "concurrency": concurrency,
        "real_wall_s": wall,
        "wall_s_per_1000_games": 1000 * wall / summary.played if summary.played else None,
        "final_wall_s_estimate": (wall / summary.played * reach)
        if summary.played and reach
        else None,
    }


def grading_table(
    teams: list[int],
    per_pairing: list[int],
    staff: int,
    seconds_per_game: float,
    ranking_games: int = 10,
    min_games: int = 30,
) -> dict[str, Any]:
    """What N games per pairing in a 2-player round-robin final give a grade against a staff
    bot (each team plays it N times): the 95% Wilson interval of a perfect record and its
    width at an even record, the lowest win rate whose low bound is over 0.5; and what the
    final costs for each class size (`teams` + `staff` entries): its games, the games per
    entry, the `final_min_games` that keeps it a round-robin, the wall time at
    `seconds_per_game` (games played one at a time: divide by the concurrency). Beside it the
    graded final giving the same N games against each staff bot (then `ranking_games` each
    among the teams; None without a staff bot), and the adaptive final of `min_games` games
    an entry (whatever N: it plays no set number of games against a staff bot)."""
    from tournaments.domain.report import wilson
    from tournaments.domain.rounds import games_for, graded_games

    def graded(t: int, n: int) -> int | None:
        return graded_games(t, staff, 2, n, ranking_games) if staff else None

    def wall(games: int | None) -> int | None:
        return None if games is None else round(games * seconds_per_game)

    rows = []
    for n in per_pairing:
        low_all, _ = wilson(n, n)
        even_low, even_high = wilson(n / 2, n)
        passing = next((k for k in range(n + 1) if wilson(k, n)[0] > 0.5), None)
        rows.append(
            {
                "games_per_pairing": n,
                "low_bound_winning_all": round(low_all, 3),
                "interval_width_at_half": round(even_high - even_low, 3),
                "lowest_win_rate_with_low_bound_over_half": (
                    round(passing / n, 3) if passing is not None else None
                ),
                "classes": [
                    {
                        "teams": t,
                        "final_games": (t + staff) * (t + staff - 1) // 2 * n,
                        "games_per_entry": (t + staff - 1) * n,
                        "final_min_games_for_round_robin": (t + staff - 1) * n,
                        "wall_s_one_at_a_time": round(
                            (t + staff) * (t + staff - 1) // 2 * n * seconds_per_game
                        ),
                        "graded_games": graded(t, n),
                        "graded_wall_s_one_at_a_time": wall(graded(t, n)),
                    }
                    for t in teams
                ],
            }
        )
    adaptive = [
        {
            "teams": t,
            "final_games": games_for(t + staff, min_games, 2),
            "wall_s_one_at_a_time": wall(games_for(t + staff, min_games, 2)),
        }
        for t in teams
    ]
    return {
        "staff_bots": staff,
        "seconds_per_game": seconds_per_game,
        "rows": rows,
        "ranking_games_per_team": ranking_games,
        "adaptive_min_games": min_games,
        "adaptive": adaptive,
    }
