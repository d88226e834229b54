"""The `azul-arena` command line: verbs grouped by noun, each group in its own module."""

from __future__ import annotations

from tournaments.commands import (  # noqa: F401
    bench,
    bots,
    demo,
    field,
    human,
    play,
    referee,
    replay,
    report_page,
    rerun,
    tournament,
    view,
)
from tournaments.commands.groups import app


def main() -> None:
    """Entry point of the `azul-arena` console script."""
    app()


if __name__ == "__main__":
    main()
