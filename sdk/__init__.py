"""What a bot author imports: the Bot base class, run(), state views and local simulation."""

from __future__ import annotations

from sdk.bot import Bot, Clock, GameInfo, GameResult

__all__ = ["Bot", "Clock", "GameInfo", "GameResult", "run"]


def run(bot: type[Bot] | Bot, argv: list[str] | None = None) -> int:
    """Play with `bot` (a Bot subclass or instance) against the referee; see `sdk.run`."""
    # Imported here, not at the top: `python -m sdk.run` must find sdk.run not yet imported.
    from sdk.run import run as _run

    return _run(bot, argv)
