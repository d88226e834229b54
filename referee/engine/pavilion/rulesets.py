"""The Summer Pavilion family's rulesets and their switches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from referee.engine.errors import EngineError
from referee.engine.rulesets import Ruleset, get_ruleset

# The number printed on each space (= the tiles it costs), per star (index 0 the centre star, 1-6
# the stars around it) and space (1-6). On the coloured side space k is numbered k on every star.
COLOURED_SPACE_NUMBERS: Final = ((1, 2, 3, 4, 5, 6),) * 7
# The monochrome side's numbers are printed only on the board, which the rulebook text does not
# show: until they are known, the coloured side's numbers. Correct them here, in this one table.
MONOCHROME_SPACE_NUMBERS: Final = COLOURED_SPACE_NUMBERS


@dataclass(frozen=True)
class PavilionRuleset(Ruleset):
    """A Summer Pavilion ruleset: the common fields and the family's switches."""

    space_numbers: tuple[tuple[int, ...], ...] = COLOURED_SPACE_NUMBERS  # cost of each space
    monochrome_stars: bool = False  # Variant #1: the player chooses each star's colour(s)


PAVILION_RULESETS: tuple[PavilionRuleset, ...] = (
    PavilionRuleset(
        "pavilion",
        "pavilion",
        "Azul: Summer Pavilion",
        "Summer Pavilion (Mini) with the coloured stars, 2-4 players, 6 rounds.",
        max_rounds=6,
    ),
    PavilionRuleset(
        "pavilion-mono",
        "pavilion",
        "Azul: Summer Pavilion (monochrome stars)",
        "Variant play #1: each star single-coloured or multicoloured, the player's choice.",
        max_rounds=6,
        space_numbers=MONOCHROME_SPACE_NUMBERS,
        monochrome_stars=True,
    ),
)


def pavilion_ruleset(ruleset: str | Ruleset, context: str = "") -> PavilionRuleset:
    """The Summer Pavilion ruleset `ruleset` names (EngineError for another family's or none);
    `context` starts the error ("state: ")."""
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if not isinstance(rules, PavilionRuleset):
        raise EngineError(f"{context}{rules.name} is not a Summer Pavilion ruleset")
    return rules
