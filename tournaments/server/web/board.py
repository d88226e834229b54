"""The leaderboard's standings table, rendered once per change of the ladder and kept in each
web process. With 300 teams it is most of the front page's time (the versions' query and a
table of some 3,000 cells: about 100 ms of CPU), and on a busy ladder the crowd asks for it
more often than the standings change.

A kept table is shown while the ladder is as it was (no game finished since, the same versions
play, pinned as they were), and for BOARD_SECONDS after it was made even when the ladder has
changed meanwhile: a ladder that finishes games every second remakes it once in BOARD_SECONDS,
not at every request (the page refreshes itself every 10 s). Whatever else changes a row (an
organiser renames a team) shows within MAX_AGE_SECONDS. Each web process keeps its own: the
two queries of `ladder_stamp` are what a request costs while the ladder stands still.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game, Standing
from tournaments.server.ladder.standings import active_versions
from tournaments.server.submissions.models import Version

BOARD_SECONDS = 5.0  # settings.BOARD_SECONDS
MAX_AGE_SECONDS = 60.0


@dataclass(frozen=True)
class _Kept:
    stamp: tuple[Any, ...]
    html: SafeString
    made: float  # time.monotonic()


_kept: dict[int, _Kept] = {}
_making = threading.Lock()  # one thread remakes a table; the others show the one kept meanwhile


def ladder_stamp(contest: Contest) -> tuple[Any, ...]:
    """What the standings of `contest` follow from, in two small queries: its last finished
    game, and its passed versions (how many, the newest, the pins)."""
    last = (
        Game.objects.filter(status=Game.DONE, contest=contest)
        .order_by("-finished")
        .values_list("pk", "finished")[:1]
    )
    versions = Version.objects.filter(
        participant__contest=contest, state=Version.PASSED, suspended=""
    ).aggregate(count=Count("pk"), newest=Max("pk"), pins=Sum("participant__pinned_id"))
    return (tuple(last), versions["count"], versions["newest"], versions["pins"])


def standings_table(contest: Contest) -> SafeString:
    """The standings table of `contest` as HTML: the one kept when still current (above), else
    made anew and kept (BOARD_SECONDS 0: made at every request)."""
    fresh = float(getattr(settings, "BOARD_SECONDS", BOARD_SECONDS))
    if fresh <= 0:
        return _make(contest, ()).html
    kept = _kept.get(contest.pk)
    if kept is not None and time.monotonic() - kept.made < fresh:
        return kept.html
    stamp = ladder_stamp(contest)
    if _current(kept, stamp):
        assert kept is not None
        return kept.html
    if not _making.acquire(blocking=kept is None):
        assert kept is not None
        return kept.html  # another thread is making it: the one kept meanwhile
    try:
        again = _kept.get(contest.pk)  # made by the thread this one waited for
        if again is not None and _current(again, stamp):
            return again.html
        made = _kept[contest.pk] = _make(contest, stamp)
        return made.html
    finally:
        _making.release()


def _current(kept: _Kept | None, stamp: tuple[Any, ...]) -> bool:
    return (
        kept is not None and kept.stamp == stamp and time.monotonic() - kept.made < MAX_AGE_SECONDS
    )


def _make(contest: Contest, stamp: tuple[Any, ...]) -> _Kept:
    html = render_to_string("web/_standings_table.html", {"rows": leaderboard_rows(contest)})
    return _Kept(stamp, SafeString(html), time.monotonic())


def leaderboard_rows(contest: Contest | None = None) -> list[dict[str, Any]]:
    """The leaderboard's rows, every cell already text: the page lists every participant and
    refreshes itself, so the template only places strings (its filters and {% url %} per cell
    cost more than the database)."""
    person = reverse("participant", args=["NAME"])
    version_url = reverse("version", args=["NAME", 987654321])
    rows: list[dict[str, Any]] = []
    for v in active_versions(contest=contest):
        st: Standing = v.standing
        name = v.participant.name
        rows.append(
            {
                "name": name,
                "href": person.replace("NAME", name),
                "reference": v.participant.staff_bot,
                "version": f"v{v.number}",
                "version_href": version_url.replace("987654321", str(v.number)).replace(
                    "NAME", name
                ),
                "key": st.conservative,
                "score": f"{st.conservative:.2f}",
                "mu": f"{st.mu:.2f}",
                "sigma": f"{st.sigma:.2f}",
                "games": st.games,
                "win_rate": f"{100 * st.wins / st.games:.0f}%" if st.games else "-",
                "last_game": f"{st.last_game:%Y-%m-%d %H:%M:%S}" if st.last_game else "-",
            }
        )
    rows.sort(key=lambda r: -r["key"])
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


def forget() -> None:
    """Drop every kept table (tests, and a test server between its tests)."""
    _kept.clear()
