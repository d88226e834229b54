"""The `azul-arena` command line: verbs grouped by noun, each group in its own module."""

from __future__ import annotations

from tournaments.commands import (  # noqa: F401
    bench,
    bench_server,
    bot,
    demo,
    match,
    participant,
    play,
    referee,
    replay,
    server,
    tournament,
)
from tournaments.commands.groups import app


def main() -> None:
    """Entry point of the `azul-arena` console script."""
    app()


if __name__ == "__main__":
    main()
