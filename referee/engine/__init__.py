"""The rules engine of every Azul game family: rules only, no I/O, no protobuf, no clocks.

Layout: the family-neutral API is `game` (the `Game` interface and the family registry),
`rulesets`, `record` (records of every family), `errors`, `rng` and `compiled`; each family is a
package of its own (`classic/`, `pavilion/`), which registers its engine when imported. A new
family is a new package beside them, named in `rulesets.RULESETS` and imported below.
"""

from __future__ import annotations

from typing import Any

# First: decides between the compiled build and the sources before any core module is imported.
from referee.engine.compiled import COMPILED

# isort: split
from referee.engine.classic import (
    CENTRE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    FLOOR,
    ClassicGame,
    Move,
    read_header,
)
from referee.engine.errors import EngineError, IllegalMoveError, NotationError, RecordError
from referee.engine.game import OVER, TAKE, WALL, Game
from referee.engine.pavilion import BONUS, PLAY, PavilionGame, PavilionMove
from referee.engine.record import RECORD_FORMAT, load_record, replay, verify
from referee.engine.rulesets import RULESETS, Ruleset, get_ruleset, rulesets_played


def new_game(
    ruleset: str = "azul",
    players: int = 2,
    seed: int | None = None,
    first_player: int = 0,
    *,
    wild_order: str | None = None,
) -> Game:
    """A fresh game of `ruleset` for `players` seats; `seed` makes its chance reproducible.
    `wild_order` (Summer Pavilion only): the wild colour of rounds 1-6, e.g. "PGOYBR"."""
    engine: Any = Game.family_of(ruleset)
    options = {} if wild_order is None else {"wild_order": wild_order}
    for name in options.keys() - engine.option_names:
        takers = [r for r in RULESETS if name in Game.family_of(r).option_names]
        raise EngineError(
            f"{ruleset} has no option {name} (these rulesets do: {', '.join(takers)})"
        )
    game: Game = engine(ruleset, players, seed=seed, first_player=first_player, **options)
    return game


def game_from_state(state: dict[str, Any], seed: int | None = None) -> Game:
    """A playable game of the right family rebuilt from `Game.to_state()` (= Game.from_state)."""
    return Game.from_state(state, seed)


__all__ = [
    "COMPILED",
    "BONUS",
    "PLAY",
    "PavilionGame",
    "PavilionMove",
    "CENTRE",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "FLOOR",
    "OVER",
    "RECORD_FORMAT",
    "RULESETS",
    "TAKE",
    "WALL",
    "ClassicGame",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "RecordError",
    "Ruleset",
    "game_from_state",
    "get_ruleset",
    "rulesets_played",
    "load_record",
    "new_game",
    "read_header",
    "replay",
    "verify",
]
