"""What a bot author imports: the Bot base class, run(), state views and local simulation."""

from __future__ import annotations

from referee.engine import RULESETS
from sdk.bot import Bot, Clock, GameInfo, GameResult

__all__ = ["EVERY_RULESET", "Bot", "Clock", "GameInfo", "GameResult", "run"]

# Every ruleset of every family, for a bot that plays them all: `rulesets = sdk.EVERY_RULESET`.
EVERY_RULESET: tuple[str, ...] = tuple(RULESETS)


def run(bot: type[Bot] | Bot, argv: list[str] | None = None) -> int:
    """Play with `bot` (a Bot subclass or instance) against the referee; see `sdk.run`."""
    # Imported here, not at the top: `python -m sdk.run` must find sdk.run not yet imported.
    from sdk.run import run as _run

    return _run(bot, argv)
