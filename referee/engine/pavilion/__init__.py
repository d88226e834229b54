"""The Summer Pavilion family (`pavilion`, `pavilion-mono`, option `wild_order`): one engine.

What the layers above may use of it is exported here; its modules are its own."""

from referee.engine.pavilion.game import PavilionGame
from referee.engine.pavilion.moves import COLOUR_LETTERS, COLOUR_NAMES, PavilionMove
from referee.engine.pavilion.record import read_pavilion_header
from referee.engine.pavilion.tables import BONUS, PLAY, STAR_COLOURS

__all__ = [
    "BONUS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "PLAY",
    "STAR_COLOURS",
    "PavilionGame",
    "PavilionMove",
    "read_pavilion_header",
]
