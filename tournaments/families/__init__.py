"""How each game family is shown to people: moves in words, boards in a terminal, viewer data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import RenderableType


def replay_states(record: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """Every state of a record's game (before the first move ... after the last) and its moves,
    for any family: the engine checks the record first (RecordError says where it goes wrong),
    then plays it again from its start, with the record's chance outcomes."""
    from referee.engine import Game, replay

    replay(record)
    game = Game.from_record(record, upto=0)
    return play_states(game, [list(rnd.get("moves", [])) for rnd in record["rounds"]])


@dataclass(frozen=True)
class FamilyView:
    """What the viewer, the terminal views and the human seat need to know about one family.

    `describe(state, move)` says a move in words from the state before it; `board(state, names)`
    is a rich picture of a state; `layout(ruleset)` is the static drawing data the web page needs
    (for the classic family, the wall's colour pattern); `script` the web viewer's renderer, a
    JavaScript file that sets `AzulViewer.renderers[family]` (None: the state shown as text);
    `replay_states(record)` replays a checked record: its states and its moves;
    `move_cell(state, move)` places a move in the terminal's compact move grid as (row, column,
    note), e.g. ("2 red from factory 4", "line 3", "+1") for 4R3, or None for a move the grid
    does not hold (the human seat lists those by number and in words).
    """

    family: str
    describe: Callable[[dict[str, Any], str], str]
    board: Callable[[dict[str, Any], list[str] | None], RenderableType]
    layout: Callable[[str], dict[str, Any]]
    script: Path | None = None
    replay_states: Callable[[dict[str, Any]], tuple[list[dict[str, Any]], list[str]]] = (
        replay_states
    )
    move_cell: Callable[[dict[str, Any], str], tuple[str, str, str] | None] | None = None


def view_for(ruleset: str) -> FamilyView:
    """The FamilyView of the family that plays `ruleset` (EngineError for an unknown ruleset):
    the VIEW of the module its descriptor names."""
    from referee.engine import family_of

    family = family_of(ruleset)
    view: FamilyView | None = family.part("view")
    if view is None:
        raise NotImplementedError(f"no view for the {family.name} family yet")
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
