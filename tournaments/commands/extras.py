"""The optional parts of the install: a command that needs one says which to install.

`pip install azul-arena` is what a bot author needs (engine, referee, SDK, CLI); the contest
server, the Dask cluster runner and the RL environments come with the extras `[server]`,
`[cluster]` and `[rl]` (`make install` installs them all). pyproject.toml is the one list of what
each extra brings: this reads it back from the installed package's metadata.
"""

from __future__ import annotations

import importlib.metadata
import re

PACKAGE = "azul-arena"


def _name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    return match.group(0) if match else requirement


def missing(extra: str, requirements: list[str] | None = None) -> list[str]:
    """The distributions of `extra` not installed here (none when this is not an installed
    package, e.g. a checkout on PYTHONPATH: the import then says what is missing)."""
    if requirements is None:
        try:
            requirements = importlib.metadata.requires(PACKAGE) or []
        except importlib.metadata.PackageNotFoundError:
            return []
    wanted = [r for r in requirements if re.search(rf"extra\s*==\s*['\"]{extra}['\"]", r)]
    absent = []
    for requirement in wanted:
        try:
            importlib.metadata.distribution(_name(requirement))
        except importlib.metadata.PackageNotFoundError:
            absent.append(_name(requirement))
    return absent


def needs(extra: str, what: str, requirements: list[str] | None = None) -> str | None:
    """The error for `what` (e.g. "the contest server") without `extra`, or None if installed."""
    absent = missing(extra, requirements)
    if not absent:
        return None
    return (
        f"{what} needs the [{extra}] extra ({', '.join(absent)} not installed): "
        f"pip install '{PACKAGE}[{extra}]' (in a checkout, `make install` installs every extra)"
    )
