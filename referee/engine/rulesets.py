"""Rulesets: what every family's rulesets share, and the registry of the rulesets offered.

A family's own switches (classic's gray wall, Summer Pavilion's monochrome stars) are fields of
its own `Ruleset` subclass, in its package; its descriptor (`referee.engine.family`) adds its
rulesets here when it is registered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from referee.engine.errors import EngineError

# Factories by number of players, in every ruleset (4 tiles each).
FACTORIES_FOR_PLAYERS: Final = {2: 5, 3: 7, 4: 9}


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its name (used by the engine, the protocol and the CLI), its family and
    what every family's rulesets have; a family subclasses it for its own switches."""

    name: str
    family: str
    title: str
    description: str
    min_players: int = 2
    max_players: int = 4
    # A game ends after this round at the latest (rulebook games last 5-6 rounds, random play
    # at most about 20): only players who avoid the wall forever ever reach it.
    max_rounds: int = 50

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise EngineError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )


# Every registered family's rulesets by name, in registration order (referee.engine.family).
RULESETS: dict[str, Ruleset] = {}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called `name`; the error lists the ones that exist."""
    try:
        return RULESETS[name]
    except KeyError:
        raise EngineError(
            f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}"
        ) from None


# The family of a bot whose Hello names no ruleset this engine knows: such a Hello predates the
# other families (the protocol's first version had no rulesets field).
DEFAULT_FAMILY: Final = "classic"


def rulesets_played(declared: Iterable[str]) -> list[str]:
    """The rulesets a bot plays, from the names its Hello lists: those this engine knows, or
    every ruleset of the default family when it knows none of them."""
    known = [r for r in declared if r in RULESETS]
    return known or [name for name, r in RULESETS.items() if r.family == DEFAULT_FAMILY]
