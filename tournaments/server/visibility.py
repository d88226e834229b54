"""Who may see what on the contest server: the one place every page and API endpoint asks.

The rules, for an organiser (an active staff user), a participant's member, anyone else:

- **private** (a participant's logs, its versions' archives and sources, why a version failed
  and its validation details): its members and the organisers; to anyone else they do not
  exist (404), so ids cannot be probed for what is there;
- **results** (games with their scores and ranks, replays, ratings, game counts, results
  against each opponent): everyone when the contest is public or closed. A contest hidden
  until its results shows them, before it is closed, to the organisers; a participant sees
  only the games it played in (not the ratings), as every participant sees them. A final's
  games are its results, published when the contest closes: before, they are shown as a
  hidden contest's are, whatever the contest's visibility.

The models' managers are these QuerySets (`Game.objects.visible_to(user)`,
`Seat.objects.visible_to(user)`, `Seat.objects.logs_visible_to(user)`,
`Version.objects.private_to(user)`, `Participant.objects.private_to(user)`), so a view asks for
what it may show rather than checking after. This module imports no model (the models import
it; the apps' layering, pyproject.toml): it names the ones it reads through Django's registry.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db import models
from django.db.models import Q


def is_organiser(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_staff)


def results_open(contest: Any, user: Any) -> bool:
    """Whether `user` sees all of `contest`'s results: its leaderboard, ratings, games."""
    return bool(
        contest is None
        or contest.visibility == contest.PUBLIC
        or contest.state == contest.CLOSED
        or is_organiser(user)
    )


def _members(user: Any, prefix: str) -> Q:
    """Rows whose participant (at `prefix`, e.g. "version__participant__") has `user` as a
    member; nothing for a visitor."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    return Q(**{f"{prefix}members": user})


def _games_played(user: Any) -> Any:
    """The ids of the games a participant of `user`'s played in (a subquery)."""
    return (
        apps.get_model("arena_ladder", "Seat")
        .objects.filter(version__participant__members=user)
        .values("game_id")
    )


def _hidden_contests(user: Any) -> tuple[list[int], list[int]]:
    """The contests whose results are not open to `user` (`results_open`, the one rule), and
    those whose final is played and not yet published (the contest is `final`): a server has a
    handful of contests, read once per question, and when none is hidden from `user` the games
    are not filtered at all."""
    if is_organiser(user):
        return [], []
    contests = apps.get_model("arena_contests", "Contest").objects.only("pk", "visibility", "state")
    hidden, finals = [], []
    for c in contests:
        if not results_open(c, user):
            hidden.append(c.pk)
        elif c.state == c.FINAL:
            finals.append(c.pk)
    return hidden, finals


def _results_q(user: Any, game: str) -> Q | None:
    """Rows of games (at `game`: "" for a game itself, "game__" for a seat) `user` may see:
    those of contests whose results are open to them (a final's once it is published) and,
    otherwise, those they played in; None when that is every game."""
    hidden, finals = _hidden_contests(user)
    if not hidden and not finals:
        return None
    q = ~Q(**{f"{game}contest_id__in": hidden}) & ~Q(
        **{f"{game}contest_id__in": finals, f"{game}kind": "final"}
    )
    if user.is_authenticated:
        q |= Q(**{f"{game}pk__in": _games_played(user)})
    return q


class GameQuerySet(models.QuerySet):  # type: ignore[type-arg]
    def visible_to(self, user: Any) -> GameQuerySet:
        """The games whose page, replay, scores and ranks `user` may see."""
        q = _results_q(user, "")
        return self if q is None else self.filter(q)

    def analysable_by(self, user: Any) -> GameQuerySet:
        """The games `user` may have analysed (analyses.queue): those a participant of theirs
        played in; an organiser, any."""
        if is_organiser(user):
            return self
        if not user.is_authenticated:
            return self.none()
        return self.filter(pk__in=_games_played(user))


class SeatQuerySet(models.QuerySet):  # type: ignore[type-arg]
    def visible_to(self, user: Any) -> SeatQuerySet:
        """The seats (a score, a rank, a rating change) of the games `user` may see."""
        q = _results_q(user, "game__")
        return self if q is None else self.filter(q)

    def logs_visible_to(self, user: Any) -> SeatQuerySet:
        """The seats whose bot process log `user` may read: their own participants'."""
        if is_organiser(user):
            return self
        return self.filter(_members(user, "version__participant__"))


class VersionQuerySet(models.QuerySet):  # type: ignore[type-arg]
    def private_to(self, user: Any) -> VersionQuerySet:
        """The versions whose archive, failure reason and validation details `user` may see."""
        return self if is_organiser(user) else self.filter(_members(user, "participant__"))


class ParticipantQuerySet(models.QuerySet):  # type: ignore[type-arg]
    def private_to(self, user: Any) -> ParticipantQuerySet:
        """The participants whose private things (logs, sources, archives) `user` may see."""
        return self if is_organiser(user) else self.filter(_members(user, ""))


def may_see_private(participant: Any, user: Any) -> bool:
    """`ParticipantQuerySet.private_to`, asked of one participant."""
    if is_organiser(user):
        return True
    return bool(type(participant).objects.private_to(user).filter(pk=participant.pk).exists())
