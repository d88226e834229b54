"""How each game family is shown to people: moves in words, boards in a terminal, viewer data."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType


@dataclass(frozen=True)
class FamilyView:
    """What the viewer, the terminal views and the human seat need to know about one family.

    `describe(state, move)` says a move in words from the state before it; `board(state, names)`
    is a rich picture of a state; `replay_states(record)` replays a checked record: its states
    (before the first move ... after the last) and its moves; `layout(ruleset)` is the static
    drawing data the web page needs (for the classic family, the wall's colour pattern).
    """

    family: str
    describe: Callable[[dict[str, Any], str], str]
    board: Callable[[dict[str, Any], list[str] | None], RenderableType]
    replay_states: Callable[[dict[str, Any]], tuple[list[dict[str, Any]], list[str]]]
    layout: Callable[[str], dict[str, Any]]


# Each family's view, by the engine's family name: the module whose VIEW it is (loaded when a
# game of that family is first shown). A new family adds its module here.
VIEWS = {"classic": "tournaments.families.classic", "pavilion": "tournaments.families.pavilion"}


def view_for(ruleset: str) -> FamilyView:
    """The FamilyView of the family that plays `ruleset` (EngineError for an unknown ruleset)."""
    from referee.engine import get_ruleset

    family = get_ruleset(ruleset).family
    if family not in VIEWS:
        raise NotImplementedError(f"no view for the {family} family yet")
    view: FamilyView = importlib.import_module(VIEWS[family]).VIEW
    return view


def play_states(game: Any, rounds: list[list[str]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Push a record's moves (already checked by the engine) into `game`, a fresh game with the
    record's chance outcomes: every state from the first to the last, and the moves."""
    states, moves = [game.to_state()], []
    for round_moves in rounds:
        for text in round_moves:
            game.push(game.parse_move(text))
            states.append(game.to_state())
            moves.append(text)
    return states, moves
