"""The contest server: participants submit bots, a ladder plays them, everyone watches on the web.

A Django project with one app per concern, bottom to top; an app imports only those below it
(the import-linter contract in pyproject.toml), and a lower app that must set off something in
a higher one sends a signal the higher one connects (a version that passes validation gets its
ladder standing so):

- `accounts`: API tokens (the accounts are Django's users);
- `contests`: a contest (rules, dates), its participants (a person or a team), extensions, and
  its life as a state machine (`contests.lifecycle`: `move`, who may submit when);
- `submissions`: archives, versions, their intake and validation;
- `ladder`: standings, games (ranked, challenges, the version tests') with their seats and
  ratings, their logs and how long they are kept, and the workers' beats; beside it, not
  knowing it, `handins`: the version each participant handed in at its deadline;
- the kinds of work above the ladder, independent of each other: `finals` (the final
  tournament, where it stands, its results and export, and the date-driven steps of a
  contest's life, `finals.lifecycle.advance`), `analyses`, `versiontests` and `tables` (a
  person's game against a bot in the browser);
- `worker`: the loop that draws every kind of work by the contest's shares (it sits above the
  kinds it draws), what waits, and the organisers' operations and admin that see all of them;
- `web`: the pages.

It uses the tournament domain (runner, Arena, ratings) and the referee's public API; nothing in
referee/, sdk/ or bots/ imports it.
"""

from __future__ import annotations

import os
from pathlib import Path

SETTINGS = "tournaments.server.settings"
HOME_VARIABLE = "AZUL_ARENA_SERVER_HOME"


def setup(home: Path | None = None) -> None:
    """Configure Django for this process (the data folder `home`, else $AZUL_ARENA_SERVER_HOME,
    else ./arena-server) and load the apps. Call once, before importing any model."""
    import django

    if home is not None:
        os.environ[HOME_VARIABLE] = str(Path(home).resolve())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    django.setup()
