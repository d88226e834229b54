"""Who may see what: the one place the pages ask. A participant's logs, sources and archives
are for its members and the organisers only; to anyone else they do not exist (404), so ids
cannot be probed for what is there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404

from tournaments.server.accounts.models import Participant


def require_private(participant: Participant, user: Any) -> None:
    if not participant.may_see_private(user):
        raise Http404("not found")


def require_game_visible(game: Any, user: Any) -> None:
    """A game of a contest hidden until its results gives the results away: before the contest
    is closed, only the organisers and the participants who played in it see it (404 to
    anyone else, as for private things)."""
    contest = game.contest
    if contest is None or contest.standings_visible_to(user):
        return
    seated = (s.version.participant for s in game.seats.select_related("version__participant"))
    if not any(who.may_see_private(user) for who in seated):
        raise Http404("not found")


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` (resolved) lies inside `folder`: a stored log path is read only there."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def log_folder() -> Path:
    return Path(settings.HOME) / "logs"
