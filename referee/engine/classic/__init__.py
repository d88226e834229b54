"""The classic Azul family (`azul`, `azul-mini`, `azul-gray`, `azul-greenbox`): one engine.

What the layers above may use of it is exported here (the SDK's evaluation helpers and the
terminal views read the scoring tables); its modules are its own."""

from referee.engine.classic.game import ClassicGame
from referee.engine.classic.moves import CENTRE, COLOUR_LETTERS, COLOUR_NAMES, FLOOR, Move
from referee.engine.classic.record import read_header
from referee.engine.classic.tables import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_LOSS,
    FLOOR_SLOTS,
    ROW_BONUS,
    wall_column,
    wall_points,
)

__all__ = [
    "CENTRE",
    "COLOUR_BONUS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "COLUMN_BONUS",
    "FLOOR",
    "FLOOR_LOSS",
    "FLOOR_SLOTS",
    "ROW_BONUS",
    "ClassicGame",
    "Move",
    "read_header",
    "wall_column",
    "wall_points",
]
