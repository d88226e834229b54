"""The classic family's rulesets and their switches."""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.errors import EngineError
from referee.engine.rulesets import Ruleset, get_ruleset


@dataclass(frozen=True)
class ClassicRuleset(Ruleset):
    """A classic Azul ruleset: the common fields and the classic switches."""

    gray_wall: bool = False  # the player chooses the wall column (variant play)
    unique_line_colours: bool = False  # Green Box: a colour may not be in two pattern lines


CLASSIC_RULESETS: tuple[ClassicRuleset, ...] = (
    ClassicRuleset("azul", "classic", "Azul", "Classic Azul with the coloured wall, 2-4 players."),
    ClassicRuleset(
        "azul-mini",
        "classic",
        "Azul Mini",
        "The travel edition: the same rules as classic Azul, labelled as Azul Mini.",
    ),
    ClassicRuleset(
        "azul-gray",
        "classic",
        "Azul (gray wall)",
        "Variant play: the player chooses the wall column of each tile; no colour twice "
        "in a column.",
        gray_wall=True,
    ),
    ClassicRuleset(
        "azul-greenbox",
        "classic",
        "Azul (Green Box)",
        "Classic Azul, and a colour may not be in two pattern lines at the same time.",
        unique_line_colours=True,
    ),
)


def classic_ruleset(ruleset: str | Ruleset) -> ClassicRuleset:
    """The classic ruleset `ruleset` names (EngineError for another family's or none)."""
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if not isinstance(rules, ClassicRuleset):
        raise EngineError(f"{rules.name} is not a classic Azul ruleset")
    return rules
