"""The published results of a contest: its final's standings, as the contest's page shows them
once the final is done (to everyone once the contest is closed; to the organisers before).

The final's report is built from its games (fresh ratings from the final's games alone, as the
export's standings); a done final no longer changes, so the rows are kept per contest and
games played.
"""

from __future__ import annotations

from typing import Any

from tournaments.server.contests.models import Contest
from tournaments.server.finals.store import FinalStore
from tournaments.server.handins.models import HandIn

_CACHE: dict[tuple[int, int, int], list[dict[str, Any]]] = {}


def final_rows(contest: Contest) -> list[dict[str, Any]]:
    """The final's leaderboard as text cells: rank, team, the version it handed in, mu - 3
    sigma, mu, sigma, games, mean score, faults."""
    key = (contest.pk, *FinalStore(contest).counts())
    if key not in _CACHE:
        _CACHE.clear()  # one contest's final at a time is what pages ask for
        _CACHE[key] = _rows(contest)
    return _CACHE[key]


def _rows(contest: Contest) -> list[dict[str, Any]]:
    from tournaments.server.finals.play import final_report

    report = final_report(contest)
    versions = {
        h.participant.name: f"v{h.version.number}"
        for h in HandIn.objects.filter(contest=contest, version__isnull=False).select_related(
            "participant", "version"
        )
        if h.version is not None
    }
    return [
        {
            "rank": r.rank,
            "name": r.entry,
            "version": versions.get(r.entry, ""),
            "score": f"{r.conservative:.2f}",
            "mu": f"{r.mu:.2f}",
            "sigma": f"{r.sigma:.2f}",
            "games": r.games,
            "mean_score": f"{r.mean_score:.1f}",
            "faults": r.faults,
        }
        for r in report.leaderboard
    ]
