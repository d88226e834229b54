"""The contest server: participants submit bots, a ladder plays them, everyone watches on the web.

A Django project with one app per concern: `accounts` (participants, API tokens), `submissions`
(archives, versions, validation), `ladder` (contest settings, games, ratings, the worker) and
`web` (pages). It uses the tournament domain (runner, Arena, ratings) and the referee's public
API; nothing in referee/, sdk/ or bots/ imports it.
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
