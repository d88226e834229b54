"""What the organisers' server commands share: the data folder's option, Django set up on it,
the secret key's check, and contest services' refusals said as errors."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from tournaments.commands.common import Exit, fail

HOME_HELP = (
    "the server's data folder: database, archives, versions, logs (default: "
    "$AZUL_ARENA_SERVER_HOME, else ./arena-server)"
)
WHEN_HELP = "a date and time in UTC, e.g. 2026-12-01T17:00"
BUILD_TIMEOUT_HELP = (
    "seconds a version's build may take at most, whatever its bot.toml asks (its validation "
    "fails past it)"
)


def setup(
    home: Path | None, make_key: bool = False, check_key: bool = False, migrate: bool = False
) -> Path:
    """Configure Django on the data folder and return it. `make_key` (init, demo) first makes
    its secret key file unless $AZUL_ARENA_SECRET_KEY is set: the only commands that make one;
    `check_key` (the commands that serve or sign) refuses a missing, published or git-tracked
    key; `migrate` makes or upgrades the database's tables."""
    from tournaments.server import HOME_VARIABLE
    from tournaments.server import setup as django_setup

    chosen = home or Path(os.environ.get(HOME_VARIABLE) or "arena-server")
    try:
        chosen.mkdir(parents=True, exist_ok=True)  # the settings only read it
        if make_key:
            from tournaments.server.secret import make_key as make

            make(chosen.resolve())
        django_setup(chosen)
    except Exception as exc:
        fail(f"cannot start the server's Django project: {exc}")
    if check_key:
        _check_key()
    if migrate:
        from tournaments.server.runtime import migrate as make_tables

        make_tables()
    return chosen.resolve()


def _check_key() -> None:
    """Refuse to serve with no secret key, a published one or one tracked by git."""
    from django.conf import settings

    from tournaments.server.secret import configured_key, refusal

    problem = refusal(settings.HOME, configured_key())
    if problem is not None:
        fail(problem)


@contextmanager
def refusals() -> Iterator[None]:
    """A contest service's refusal (ContestError) as an error and exit 2; mailing that failed
    after the work was done, exit 1."""
    from tournaments.server.contests.services import ContestError, MailError

    try:
        yield
    except MailError as exc:
        fail(str(exc), Exit.FAILED)
    except ContestError as exc:
        fail(str(exc))


def when(text: str | None, what: str) -> datetime | None:
    """The date and time `text` of option `what` (UTC unless it says otherwise), or None."""
    from datetime import UTC

    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        fail(f"{what} {text!r} is not a date and time like 2026-12-01T17:00")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
