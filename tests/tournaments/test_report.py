"""Leaderboard statistics, crosstable and exports from a real store."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pytest

from tests.tournaments.helpers import fake_outcome
from tournaments.domain.entries import Entry
from tournaments.domain.report import (
    build_report,
    clustered_mean_interval,
    export_csv,
    export_json,
    mean_interval,
    t95,
    wilson,
)
from tournaments.domain.schedule import build_schedule
from tournaments.domain.store import Store


def test_wilson_and_t_intervals() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35  # not the degenerate (0, 0) of the normal approx
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-3) and math.isclose(hi, 0.5962, abs_tol=1e-3)
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and math.isclose(hi - mean, 4.303 * 1 / math.sqrt(3), rel_tol=1e-3)
    assert math.isnan(mean_interval([5.0])[1])
    # Beyond the table's 30 degrees of freedom (the quantiles to four places: 2.0395 with
    # 31, 2.0003 with 60, 1.9799 with 120), not the normal's 1.96.
    assert t95(30) == 2.042
    for df, t in ((31, 2.0395), (60, 2.0003), (120, 1.9799)):
        assert t95(df) == pytest.approx(t, abs=5e-4)


def test_a_clustered_interval_counts_a_group_as_one_sample() -> None:
    # One value a group: the plain t interval.
    values = [1.0, 2.0, 2.0, 4.0, 3.0]
    assert clustered_mean_interval([[v] for v in values]) == pytest.approx(mean_interval(values))
    # Two groups whose values agree inside each: two samples, not six (t with 1 degree of
    # freedom), far wider than six independent values would give.
    mean, _, hi = clustered_mean_interval([[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]])
    # cluster totals 3 and 9 around 2 x 3: spread 9 + 9, variance 2/1 x 18/36 = 1.
    assert mean == 2.0 and hi - mean == pytest.approx(12.706 * 1.0)
    assert hi - mean > 10 * (mean_interval([1.0] * 3 + [3.0] * 3)[2] - mean)
    # Groups whose values cancel inside each (the seats of a deal rotated): narrower.
    rotated = [[1.0, 3.0], [3.0, 1.0], [1.0, 3.0], [3.0, 1.0]]
    assert clustered_mean_interval(rotated)[1:] == (2.0, 2.0)
    assert math.isnan(clustered_mean_interval([[1.0, 2.0]])[1])  # one group: no interval
    assert math.isnan(clustered_mean_interval([])[0])


def _store(tmp_path: Path, done: int | None = None) -> Store:
    entries = [Entry(n, "random") for n in ("weak", "mid", "strong")]
    store = Store.open(tmp_path / "r.db")
    games = build_schedule([e.name for e in entries], 2, 4, seed=9)
    store.write_schedule({"seed": 9}, entries, games)
    for g in games[:done]:
        store.record(g, fake_outcome(g, termination={"weak": "timeout"}))
    return store


def test_leaderboard_order_stats_and_faults(tmp_path: Path) -> None:
    report = build_report(_store(tmp_path))
    names = [r.entry for r in report.leaderboard]
    assert names == ["strong", "mid", "weak"]
    top, _, last = report.leaderboard
    assert top.games == 8 and top.wins == 8 and top.win_rate == 1.0
    assert top.conservative == top.mu - 3 * top.sigma
    assert top.win_rate_low < 1.0 == top.win_rate_high
    assert top.mean_score_low < top.mean_score < top.mean_score_high
    assert last.faults == 8 and last.fault_kinds == {"timeout": 8}
    assert top.faults == 0
    cell = report.crosstable[("strong", "weak")]
    assert (cell.wins, cell.losses, cell.draws) == (4, 0, 0)
    assert report.crosstable[("weak", "strong")].losses == 4
    js = report.to_json()
    assert js["games_total"] == js["games_done"] == 12
    assert {"entry", "mu", "sigma", "games", "wins", "mean_score", "faults"} <= set(
        js["leaderboard"][0]
    )


def test_report_of_partial_run_and_ratings_recomputable(tmp_path: Path) -> None:
    store = _store(tmp_path, done=5)
    a = build_report(store)
    assert (a.games_done, a.games_total) == (5, 12)
    assert sum(r.games for r in a.leaderboard) == 10
    b = build_report(store)
    assert [(r.entry, r.mu, r.sigma) for r in a.leaderboard] == [
        (r.entry, r.mu, r.sigma) for r in b.leaderboard
    ]


def test_exports(tmp_path: Path) -> None:
    store = _store(tmp_path, done=3)
    rows = list(csv.DictReader(io.StringIO(export_csv(store))))
    assert len(rows) == 24  # 12 games x 2 seats, pending ones included
    assert sum(r["status"] == "done" for r in rows) == 6
    assert rows[0]["termination"] in ("ok", "timeout")
    data = export_json(store)
    assert data["games_done"] == 3 and len(data["games"]) == 12
    assert data["games"][0]["record"]["format"] == "azul-arena/record/1"
    assert "record" not in data["games"][-1]


def test_an_early_score_interval_is_never_negative_and_reads_as_a_range() -> None:
    """0 and 110 points: the t interval's low end is clipped at zero (no score is negative) and
    the terminal separates the ends with a dash, not a minus-looking hyphen; under
    MEAN_INTERVAL_MIN_GAMES games (2 here, where it spans more than any score) it says "too
    few games" instead."""
    from rich.console import Console

    from tournaments.domain.report import MEAN_INTERVAL_MIN_GAMES, Row
    from tournaments.terminal.render import leaderboard_table

    def shown(scores: list[float]) -> tuple[str, float]:
        mean, lo, hi = mean_interval(scores)
        assert lo == 0.0 and hi > max(scores) / 2
        n = len(scores)
        row = Row(1, "early", 25.0, 8.0, 1.0, n, 1, 0, 0.5, 0.1, 0.9, mean, lo, hi, 0)
        console = Console(record=True, width=200)
        console.print(leaderboard_table([row]))
        return console.export_text(), hi

    text, hi = shown([0.0, 110.0])
    assert "55.0 (too few games)" in text and f"{hi:.1f}" not in text, text
    scores = [0.0, 110.0] * (MEAN_INTERVAL_MIN_GAMES // 2) + [0.0]
    text, hi = shown(scores)
    mean = sum(scores) / len(scores)
    assert f"{mean:.1f} (0.0\u2013{hi:.1f})" in text and "(-" not in text, text
