"""Ladder standings: which version of each participant plays, and where a new one starts."""

from __future__ import annotations

from typing import Any

from tournaments.domain.ratings import make_env
from tournaments.server.ladder.models import Standing
from tournaments.server.submissions.models import Version

_ENV = make_env()
# A new version starts from its predecessor's mu, its sigma widened by this much (capped at the
# default): the ladder trusts that a new version is like the last, but not much.
SIGMA_WIDENING = _ENV.sigma / 2


def enter(version: Version) -> Standing:
    """The standing of a version that passed validation: its predecessor's mu (the newest
    earlier version with a standing) and a widened sigma, or the defaults for a first one."""
    before = (
        Standing.objects.filter(
            version__participant_id=version.participant_id, version__number__lt=version.number
        )
        .order_by("-version__number")
        .first()
    )
    mu, sigma = _ENV.mu, _ENV.sigma
    if before is not None:
        mu, sigma = before.mu, min(_ENV.sigma, before.sigma + SIGMA_WIDENING)
    standing, _ = Standing.objects.get_or_create(
        version=version, defaults={"mu": mu, "sigma": sigma}
    )
    return standing


def active_versions(participant: Any = None, contest: Any = None) -> list[Version]:
    """The version each participant (or only `participant`) plays with: the pinned one when it
    passed and is not suspended, else the newest that passed and is not suspended."""
    passed = (
        Version.objects.select_related("participant", "standing")
        .filter(state=Version.PASSED, suspended="", standing__isnull=False)
        .order_by("participant_id", "-number")
    )
    if participant is not None:
        passed = passed.filter(participant=participant)
    if contest is not None:
        passed = passed.filter(participant__contest=contest)
    chosen: dict[int, Version] = {}
    pinned: dict[int, Any] = {}
    for v in passed:
        pinned.setdefault(v.participant_id, v.participant.pinned_id)
        if v.participant_id not in chosen or v.pk == pinned[v.participant_id]:
            chosen[v.participant_id] = v
    return list(chosen.values())
