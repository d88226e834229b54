"""The rules engine for the Azul family: rules only, no I/O, no protobuf, no clocks."""

from __future__ import annotations

from referee.engine.classic import RECORD_FORMAT, ClassicGame
from referee.engine.classic_moves import CENTRE, COLOUR_LETTERS, COLOUR_NAMES, FLOOR, Move
from referee.engine.errors import EngineError, IllegalMoveError, NotationError, RecordError
from referee.engine.game import OVER, TAKE, WALL, Game
from referee.engine.record import load_record, read_header, replay, verify
from referee.engine.rulesets import RULESETS, Ruleset, get_ruleset

_FAMILIES: dict[str, type[Game]] = {"classic": ClassicGame}


def new_game(ruleset: str = "azul", players: int = 2, seed: int | None = None,
             first_player: int = 0) -> Game:
    """A fresh game of `ruleset` for `players` seats; `seed` makes its deals reproducible."""
    rules = get_ruleset(ruleset)
    return _FAMILIES[rules.family](rules, players, seed=seed, first_player=first_player)  # type: ignore[call-arg]


def game_from_state(state: dict, seed: int | None = None) -> Game:  # type: ignore[type-arg]
    """A playable game of the right family rebuilt from `Game.to_state()`."""
    rules = get_ruleset(state.get("ruleset", ""))
    return _FAMILIES[rules.family].from_state(state, seed)


__all__ = [
    "CENTRE", "COLOUR_LETTERS", "COLOUR_NAMES", "FLOOR", "OVER", "RECORD_FORMAT", "RULESETS",
    "TAKE", "WALL", "ClassicGame", "EngineError", "Game", "IllegalMoveError", "Move",
    "NotationError", "RecordError", "Ruleset", "game_from_state", "get_ruleset", "load_record",
    "new_game", "read_header", "replay", "verify",
]
