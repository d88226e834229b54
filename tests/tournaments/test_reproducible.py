"""The same tournament run twice with the same --seed gives the same games, move for move, for the
reference bots at fixed budgets: embedded, and on a local Dask cluster. Every bot is seeded from
the tournament's seed, the game and the seat, and sees the schedule's stable game id."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.test_cluster import assert_same_games, stored
from tournaments.domain.cluster import ClusterOptions
from tournaments.domain.entries import Entry, parse_entries
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import Store
from tournaments.domain.tournament import TournamentConfig, prepare, run_tournament

# Every random choice of these comes from their seeds; the search bots' budgets are fixed.
REFERENCE = ["random", "greedy", "mcts:iterations=40", "search:depth=2"]


def run(db: Path, chosen: list[Entry], cluster: ClusterOptions | None = None) -> None:
    config = TournamentConfig(
        entries=chosen, match=MatchSettings(time_per_move=10.0), seed=12, games_per_pairing=2
    )
    with Store.open(db) as store:
        config, pending = prepare(store, config)
        summary = asyncio.run(
            run_tournament(store, config, pending, concurrency=2, cluster=cluster)
        )
    assert summary.failed == 0 and summary.played == len(pending), summary.errors


def seeds_and_ids(db: Path) -> dict[str, Any]:
    with Store.open(db, create=False) as store:
        out = {}
        for g in store.games():
            record = store.replay(g.game.game_id) or {}
            referee = record["referee"]
            out[g.game.game_id] = (referee["match_id"], referee["config"]["bot_seeds"])
        return out


@pytest.mark.slow  # three tournaments, one on a local cluster (CI runs it)
def test_the_same_tournament_twice_and_on_a_cluster_plays_the_same_games(tmp_path: Path) -> None:
    chosen = parse_entries(REFERENCE)
    run(tmp_path / "first.db", chosen)
    run(tmp_path / "second.db", chosen)
    first, second = stored(tmp_path / "first.db"), stored(tmp_path / "second.db")
    assert len(first) == 12
    assert_same_games(first, second)
    ids = seeds_and_ids(tmp_path / "first.db")
    assert ids == seeds_and_ids(tmp_path / "second.db")
    assert all(match_id == game_id for game_id, (match_id, _) in ids.items())
    # Not one game decided by a substituted move (a fault would make it the referee's choice).
    assert all(r[3] == "ok" for g in first.values() for r in g["results"])

    pytest.importorskip("distributed", reason="Dask not installed: make install")
    run(tmp_path / "cluster.db", chosen, ClusterOptions(workers=2, threads=1))
    assert_same_games(first, stored(tmp_path / "cluster.db"))
    assert seeds_and_ids(tmp_path / "cluster.db") == ids
