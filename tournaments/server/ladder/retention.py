"""How long a contest keeps its games' bot logs: `Contest.keep_logs_days` (0: for ever).

A term's seat logs grow with its games: two files a game in a 2-player contest (`ladder.logs`),
each up to `referee.GAME_LOG_LIMIT` (a MiB) for a bot that prints much. Once a game ended more
than that many days ago its seats' logs are deleted, unless it is one of a team's latest
KEEP_RECENT games: those are the games the team's page lists, each with a link to its log, so
no page lists a link to a log that is gone. A game whose logs were deleted says so
(`Game.logs_deleted`) and its pages say the log is no longer kept instead of linking it. The
games' records (moves, faults and their details, results) are kept: they are the contest's
results.

The bots' process logs (the referee's own files in the logs folder, one per bot process, which
no page shows: a seat's log is the copy of its game's part) go by the same rule, once not
written to for that many days.

The ladder worker applies the rule every PRUNE_EVERY_SECONDS; `server prune` applies it now.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from tournaments.server.contests.models import Contest
from tournaments.server.contests.services import find_contest
from tournaments.server.ladder.logs import game_folder
from tournaments.server.ladder.models import Game, Seat

KEEP_RECENT = 20  # a team's page lists its latest 20 games, each with its log (web/pages.py)
PRUNE_EVERY_SECONDS = 3600
BATCH = 500  # games marked in one update


@dataclass(frozen=True)
class Pruned:
    """What one application of a contest's rule deleted (or, in a dry run, would delete)."""

    contest: str
    keep_logs_days: int
    games: int = 0  # games whose seats' logs went
    seat_logs: int = 0  # their files
    process_logs: int = 0
    bytes: int = 0
    dry_run: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "contest": self.contest,
            "keep_logs_days": self.keep_logs_days,
            "games": self.games,
            "seat_logs": self.seat_logs,
            "process_logs": self.process_logs,
            "bytes": self.bytes,
            "dry_run": self.dry_run,
        }


def cutoff(contest: Contest, now: datetime) -> datetime | None:
    """What ended before this moment has its logs deleted; None when the contest keeps them."""
    return now - timedelta(days=contest.keep_logs_days) if contest.keep_logs_days else None


def linked(contest: Contest) -> set[int]:
    """The games whose logs a team's page links: each team's latest KEEP_RECENT games with a
    result (the page's list of recent games, as its members and the organisers see it)."""
    keep: set[int] = set()
    for team in contest.participants.values_list("pk", flat=True):
        keep.update(
            Seat.objects.filter(version__participant_id=team, rank__isnull=False)
            .order_by("-game_id")
            .values_list("game_id", flat=True)[:KEEP_RECENT]
        )
    return keep


def expired(contest: Contest, now: datetime) -> list[int]:
    """The ids of the games of `contest` whose seats' logs the rule deletes at `now`, oldest
    first: played to their end before the cutoff, not deleted yet, and not linked from a team's
    page. (A failed game keeps its logs: an organiser may requeue it, and it is played again.)"""
    before = cutoff(contest, now)
    if before is None:
        return []
    games = (
        Game.objects.filter(
            contest=contest, status=Game.DONE, finished__lt=before, logs_deleted__isnull=True
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    keep = linked(contest)
    return [pk for pk in games if pk not in keep]


def prune(contest: Contest, now: datetime | None = None, dry_run: bool = False) -> Pruned:
    """Apply the rule of `contest` at `now` (default: now): its expired games' seat logs and
    the process logs not written to since the cutoff deleted, the games marked. A game is
    marked once its files are gone, so an interrupted prune leaves no game marked whose logs
    are still there, and the next one finishes it."""
    now = now or timezone.now()
    games = expired(contest, now)
    files = size = 0
    for start in range(0, len(games), BATCH):
        chunk = games[start : start + BATCH]
        for game_id in chunk:
            n, b = _remove(game_folder(game_id), dry_run)
            files, size = files + n, size + b
        if not dry_run:
            Game.objects.filter(pk__in=chunk).update(logs_deleted=now)
    before = cutoff(contest, now)
    process = (0, 0) if before is None else _process_logs(before, dry_run)
    return Pruned(
        contest.label,
        contest.keep_logs_days,
        len(games),
        files,
        process[0],
        size + process[1],
        dry_run,
    )


def prune_contests(slug: str | None, dry_run: bool = False) -> list[Pruned]:
    """`server prune`: the rule of contest `slug` applied (ContestError when there is no such
    contest), else that of every contest that does not keep its logs for ever."""
    if slug is not None:
        return [prune(find_contest(slug), dry_run=dry_run)]
    return [prune(c, dry_run=dry_run) for c in Contest.objects.filter(keep_logs_days__gt=0)]


def _remove(folder: Path, dry_run: bool) -> tuple[int, int]:
    """A game's folder of seat logs deleted: (its files, their bytes)."""
    if not folder.is_dir():
        return 0, 0
    found = [p for p in folder.iterdir() if p.is_file()]
    size = sum(p.stat().st_size for p in found)
    if not dry_run:
        shutil.rmtree(folder, ignore_errors=True)
    return len(found), size


def _process_logs(before: datetime, dry_run: bool) -> tuple[int, int]:
    """The bots' process logs in the logs folder last written to before `before` deleted:
    (files, bytes). The finals' progress (final-*.log) is not a bot's and stays."""
    folder = Path(settings.HOME) / "logs"
    if not folder.is_dir():
        return 0, 0
    files = size = 0
    moment = before.timestamp()
    for path in folder.glob("*.log"):
        if path.name.startswith("final-"):
            continue
        try:
            st = path.stat()
            if st.st_mtime >= moment:
                continue
            if not dry_run:
                path.unlink()
        except OSError:  # gone meanwhile (another worker's prune)
            continue
        files, size = files + 1, size + st.st_size
    return files, size
