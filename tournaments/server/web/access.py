"""Where a stored log may be read from. Who may see what is decided in one place,
`tournaments.server.visibility` (the models' QuerySets: `Game.objects.visible_to(user)`, ...)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` (resolved) lies inside `folder`: a stored log path is read only there."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def log_folder() -> Path:
    return Path(settings.HOME) / "logs"
