"""The `azul-arena` command line: verbs grouped by noun, each noun's module loaded when it is used
(tournaments/commands/groups.py)."""

from __future__ import annotations

from tournaments.commands.groups import app


def main() -> None:
    """Entry point of the `azul-arena` console script."""
    app()


if __name__ == "__main__":
    main()
