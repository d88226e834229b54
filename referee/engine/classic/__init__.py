"""The classic Azul family (`azul`, `azul-mini`, `azul-gray`, `azul-greenbox`): one engine."""

from referee.engine.classic.game import ClassicGame
from referee.engine.classic.moves import CENTRE, COLOUR_LETTERS, COLOUR_NAMES, FLOOR, Move
from referee.engine.classic.record import read_header

__all__ = ["CENTRE", "COLOUR_LETTERS", "COLOUR_NAMES", "FLOOR", "ClassicGame", "Move",
           "read_header"]
