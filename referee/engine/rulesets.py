"""The rulesets the platform offers: data, read by the family engines as small hooks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from referee.engine.errors import EngineError

# Factories by number of players, in every ruleset (4 tiles each).
FACTORIES_FOR_PLAYERS: Final = {2: 5, 3: 7, 4: 9}

# Summer Pavilion: the number printed on each space (= the tiles it costs), per star (index 0 the
# centre star, 1-6 the stars around it) and space (1-6). On the coloured side space k is numbered
# k on every star.
COLOURED_SPACE_NUMBERS: Final = ((1, 2, 3, 4, 5, 6),) * 7
# The monochrome side's numbers are printed only on the board, which the rulebook text does not
# show: until they are known, the coloured side's numbers. Correct them here, in this one table.
MONOCHROME_SPACE_NUMBERS: Final = COLOURED_SPACE_NUMBERS


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its name (used by the engine, the protocol and the CLI) and its switches."""

    name: str
    family: str
    title: str
    description: str
    min_players: int = 2
    max_players: int = 4
    # A game ends after this round at the latest (rulebook games last 5-6 rounds, random play
    # at most about 20): only players who avoid the wall forever ever reach it.
    max_rounds: int = 50
    # Classic family switches.
    gray_wall: bool = False  # the player chooses the wall column (variant play)
    unique_line_colours: bool = False  # Green Box: a colour may not be in two pattern lines
    # Summer Pavilion family switches.
    space_numbers: tuple[tuple[int, ...], ...] = COLOURED_SPACE_NUMBERS  # cost of each space
    monochrome_stars: bool = False  # Variant #1: the player chooses each star's colour(s)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise EngineError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )


RULESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        Ruleset("azul", "classic", "Azul", "Classic Azul with the coloured wall, 2-4 players."),
        Ruleset(
            "azul-mini",
            "classic",
            "Azul Mini",
            "The travel edition: the same rules as classic Azul, labelled as Azul Mini.",
        ),
        Ruleset(
            "azul-gray",
            "classic",
            "Azul (gray wall)",
            "Variant play: the player chooses the wall column of each tile; no colour twice "
            "in a column.",
            gray_wall=True,
        ),
        Ruleset(
            "azul-greenbox",
            "classic",
            "Azul (Green Box)",
            "Classic Azul, and a colour may not be in two pattern lines at the same time.",
            unique_line_colours=True,
        ),
        Ruleset(
            "pavilion",
            "pavilion",
            "Azul: Summer Pavilion",
            "Summer Pavilion (Mini) with the coloured stars, 2-4 players, 6 rounds.",
            max_rounds=6,
        ),
        Ruleset(
            "pavilion-mono",
            "pavilion",
            "Azul: Summer Pavilion (monochrome stars)",
            "Variant play #1: each star single-coloured or multicoloured, the player's choice.",
            max_rounds=6,
            space_numbers=MONOCHROME_SPACE_NUMBERS,
            monochrome_stars=True,
        ),
    )
}


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
