"""What waits for a contest's workers, by kind of work (`worker.shares`' kinds, and the final):
what the worker's share scheduler chooses among (`kinds_waiting`), and what the organisers are
shown (`backlog`: how many wait of each kind and since when, in `server contest show --json`
and the admin's contest page)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Min

from tournaments.server.analyses import queue as analyses
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game
from tournaments.server.versiontests import runs as versiontests
from tournaments.server.versiontests.models import VersionTest
from tournaments.server.worker.shares import ANALYSIS, CHALLENGE, RANKED, TEST


def challenges_waiting(contest: Contest) -> Any:
    """The challenges asked for that no worker has taken yet, oldest first."""
    return Game.objects.filter(
        contest=contest, kind=Game.CHALLENGE, status=Game.SCHEDULED, worker=""
    ).order_by("pk")


def kinds_waiting(contest: Contest) -> set[str]:
    """The kinds of work that have something for a free slot now (a few indexed reads)."""
    kinds = set()
    if contest.state == Contest.OPEN and not contest.paused:
        kinds.add(RANKED)
        if versiontests.has_games_to_play(contest):
            kinds.add(TEST)
    if challenges_waiting(contest).exists():
        kinds.add(CHALLENGE)
    if analyses.waiting(contest.pk).exists():
        kinds.add(ANALYSIS)
    return kinds


def backlog(contest: Contest) -> dict[str, Any]:
    """The shares and, by kind, how much waits and since when (ISO times, None: nothing)."""
    open_tests = VersionTest.objects.filter(contest=contest, verdict="")
    return {
        "shares": contest.shares(),
        "waiting": {
            CHALLENGE: _waiting(challenges_waiting(contest)),
            ANALYSIS: _waiting(analyses.waiting(contest.pk)),
            # Open tests wait only while the contest's games for tests are not spent.
            TEST: _waiting(open_tests if versiontests.has_games_to_play(contest) else None),
        },
    }


def _waiting(rows: Any) -> dict[str, Any]:
    """How many `rows` there are and the oldest one's `created`, in one query."""
    if rows is None:
        return {"count": 0, "since": None}
    found = rows.order_by().aggregate(count=Count("pk"), since=Min("created"))
    since = found["since"]
    return {"count": found["count"], "since": since.isoformat() if since else None}


def describe(shown: dict[str, Any]) -> str:
    """`backlog`'s answer in a line: 'nothing waits' or '2 analyses since 10:02:11, ...'."""
    words = {CHALLENGE: "challenges", ANALYSIS: "analyses", TEST: "version tests"}
    parts = [
        f"{w['count']} {words[kind]} since {w['since'][:19].replace('T', ' ')}"
        for kind, w in shown["waiting"].items()
        if w["count"]
    ]
    return ", ".join(parts) or "nothing waits"
