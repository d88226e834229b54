"""The rules engine of every Azul game family: rules only, no I/O, no protobuf, no clocks.

Layout: the family-neutral API is `game` (the `Game` interface), `family` (the `Family`
descriptor and the registry of families), `rulesets`, `record` (records of every family),
`errors`, `rng`, `batch` and `features` (sdk.rl's loops and buffers) and `compiled`; each
family is a package of its own (`classic/`, `pavilion/`) whose `FAMILY` descriptor is
registered below. A family from elsewhere (a plug-in, a test's) calls `register(family)`
itself; docs/engine.md says what a family is made of.
"""

from __future__ import annotations

from typing import Any

# First: decides between the compiled build and the sources before any core module is imported.
from referee.engine.compiled import COMPILED

# isort: split
from referee.engine import classic, pavilion
from referee.engine.bag import packed_total
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
from referee.engine.family import FAMILIES, Family, Option, check_options, family_of, register
from referee.engine.features import clear_floats, clear_mask, float_buffer, mask_buffer
from referee.engine.game import OVER, TAKE, WALL, Game
from referee.engine.pavilion import BONUS, PLAY, PavilionGame, PavilionMove
from referee.engine.record import RECORD_FORMAT, load_record, replay, verify
from referee.engine.rulesets import (
    DEFAULT_FAMILY,
    RULESETS,
    Ruleset,
    get_ruleset,
    rulesets_played,
)

# The families built in, in the order their rulesets are listed.
for _builtin in (classic.FAMILY, pavilion.FAMILY):
    register(_builtin)


def new_game(
    ruleset: str = "azul",
    players: int = 2,
    seed: int | None = None,
    first_player: int = 0,
    **options: str | None,
) -> Game:
    """A fresh game of `ruleset` for `players` seats; `seed` makes its chance reproducible.
    `options` are the options of the ruleset's family, as text, checked against its schema
    (Summer Pavilion: `wild_order="GOPYBR"`, the wild colour of rounds 1-6); None: the default."""
    engine: Any = Game.family_of(ruleset)
    checked = check_options(ruleset, {k: v for k, v in options.items() if v is not None})
    game: Game = engine(ruleset, players, seed=seed, first_player=first_player, **checked)
    return game


def game_from_state(state: dict[str, Any], seed: int | None = None) -> Game:
    """A playable game of the right family rebuilt from `Game.to_state()` (= Game.from_state)."""
    return Game.from_state(state, seed)


__all__ = [
    "BONUS",
    "CENTRE",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "COMPILED",
    "DEFAULT_FAMILY",
    "FAMILIES",
    "FLOOR",
    "OVER",
    "PLAY",
    "RECORD_FORMAT",
    "RULESETS",
    "TAKE",
    "WALL",
    "ClassicGame",
    "EngineError",
    "Family",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Option",
    "PavilionGame",
    "PavilionMove",
    "RecordError",
    "Ruleset",
    "check_options",
    "clear_floats",
    "clear_mask",
    "family_of",
    "float_buffer",
    "game_from_state",
    "get_ruleset",
    "load_record",
    "mask_buffer",
    "new_game",
    "packed_total",
    "read_header",
    "register",
    "replay",
    "rulesets_played",
    "verify",
]
