"""The classic Azul family (`azul`, `azul-mini`, `azul-gray`, `azul-greenbox`): one engine.

What the layers above may use of it is exported here (the SDK's evaluation helpers and the
terminal views read the scoring tables); its modules are its own. `FAMILY` is its descriptor:
referee.engine registers it."""

from referee.engine.classic.features import LAYOUT as FEATURE_LAYOUT
from referee.engine.classic.features import mark_legal, write_features
from referee.engine.classic.game import ClassicGame
from referee.engine.classic.moves import CENTRE, COLOUR_LETTERS, COLOUR_NAMES, FLOOR, Move
from referee.engine.classic.record import read_header
from referee.engine.classic.rulesets import CLASSIC_RULESETS, ClassicRuleset
from referee.engine.classic.tables import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_LOSS,
    FLOOR_SLOTS,
    ROW_BONUS,
    wall_column,
    wall_points,
)
from referee.engine.family import Family

__all__ = [
    "CENTRE",
    "COLOUR_BONUS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "COLUMN_BONUS",
    "FAMILY",
    "FEATURE_LAYOUT",
    "FLOOR",
    "FLOOR_LOSS",
    "FLOOR_SLOTS",
    "ROW_BONUS",
    "ClassicGame",
    "ClassicRuleset",
    "Move",
    "mark_legal",
    "read_header",
    "wall_column",
    "wall_points",
    "write_features",
]

FAMILY = Family(
    "classic",
    ClassicGame,
    CLASSIC_RULESETS,
    codec="referee.protocol.classic",
    helpers="sdk.helpers",
    view="tournaments.families.classic",
    rl="sdk.rl.encoding.classic",
)
