"""What the SDK's evaluation helpers do for one game family, and how a game finds its family's.

A family's descriptor (referee.engine.Family) names the module of its helpers; that module
defines `HELPERS = FamilyHelpers(...)` (classic: sdk.helpers, Summer Pavilion: sdk.pavilion).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.engine import FAMILIES


@dataclass(frozen=True)
class FamilyHelpers:
    """What the helpers of sdk.helpers do for one game family: a bot calls `evaluate`,
    `move_gain` ... and never asks which family it plays. `chance_within_round`: chance comes
    between a round's moves too (Summer Pavilion refills its supply from the bag), not only with
    the deal."""

    evaluate: Callable[[Any, int], float]
    evaluate_all: Callable[[Any], list[float]]
    move_gain: Callable[[Any, Any], float]
    move_gains: Callable[[Any, Any], list[float]]
    round_end_values: Callable[[Any, bool], list[float]]  # (state, next_round)
    chance_within_round: bool


def family_helpers(game: Any) -> FamilyHelpers:
    """The helpers of `game`'s family (an engine game; its class says its family)."""
    helpers: FamilyHelpers | None = FAMILIES[game.family].part("helpers")
    if helpers is None:
        raise NotImplementedError(
            f"the {game.family} family has no SDK helpers: its descriptor names no helpers module"
        )
    return helpers
