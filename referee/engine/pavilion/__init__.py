"""The Summer Pavilion family (`pavilion`, `pavilion-mono`, option `wild_order`): one engine."""

from referee.engine.pavilion.game import PavilionGame
from referee.engine.pavilion.moves import PavilionMove
from referee.engine.pavilion.record import read_pavilion_header
from referee.engine.pavilion.tables import BONUS, PLAY

__all__ = ["BONUS", "PLAY", "PavilionGame", "PavilionMove", "read_pavilion_header"]
