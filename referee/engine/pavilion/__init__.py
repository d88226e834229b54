"""The Summer Pavilion family (`pavilion`, `pavilion-mono`, option `wild_order`): one engine.

What the layers above may use of it is exported here; its modules are its own. `FAMILY` is its
descriptor: referee.engine registers it."""

from referee.engine.family import Family, Option
from referee.engine.pavilion.features import LAYOUT as FEATURE_LAYOUT
from referee.engine.pavilion.features import mark_batch, mark_legal, write_batch, write_features
from referee.engine.pavilion.game import PavilionGame
from referee.engine.pavilion.moves import (
    BONUS_MOVE,
    CENTRE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    PASS_MOVE,
    PLACE_MOVE,
    TAKE_MOVE,
    PavilionMove,
)
from referee.engine.pavilion.record import read_pavilion_header
from referee.engine.pavilion.rulesets import (
    COLOURED_SPACE_NUMBERS,
    MONOCHROME_SPACE_NUMBERS,
    PAVILION_RULESETS,
    PavilionRuleset,
    pavilion_ruleset,
)
from referee.engine.pavilion.tables import (
    ALL_COLOURS,
    BONUS,
    COLOUR_STAR_BONUS,
    PLAY,
    POPCOUNT6,
    RUN,
    STANDARD_WILD_ORDER,
    STAR_COLOURS,
    STRUCTURES_AT,
    check_wild_order,
)

# The move kinds and board tables are exported for the expert's search, which reads the
# engine's fields (bots/expert/pavilion_fields.py).
__all__ = [
    "ALL_COLOURS",
    "BONUS",
    "BONUS_MOVE",
    "CENTRE",
    "COLOURED_SPACE_NUMBERS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "COLOUR_STAR_BONUS",
    "FAMILY",
    "FEATURE_LAYOUT",
    "MONOCHROME_SPACE_NUMBERS",
    "PASS_MOVE",
    "PLACE_MOVE",
    "PLAY",
    "POPCOUNT6",
    "RUN",
    "STAR_COLOURS",
    "STRUCTURES_AT",
    "TAKE_MOVE",
    "PavilionGame",
    "PavilionMove",
    "PavilionRuleset",
    "mark_batch",
    "mark_legal",
    "pavilion_ruleset",
    "read_pavilion_header",
    "write_batch",
    "write_features",
]

FAMILY = Family(
    "pavilion",
    PavilionGame,
    PAVILION_RULESETS,
    options=(
        Option(
            "wild_order",
            STANDARD_WILD_ORDER,
            "the wild colour of rounds 1-6 as six letters, an order of PGOYBR (purple green "
            "orange yellow blue red), e.g. GOPYBR",
            check_wild_order,
        ),
    ),
    codec="referee.protocol.pavilion",
    helpers="sdk.pavilion",
    view="tournaments.families.pavilion",
    rl="sdk.rl.encoding.pavilion",
)
