"""The Summer Pavilion family's encoding (`pavilion`, `pavilion-mono`, option `wild_order`):
ENCODING, the `rl` part of the family's descriptor.

The numbers are written by the engine's compiled referee/engine/pavilion/features.py, as the
classic encoding's are (see there why); tests/rl pins every field to `to_state()`.
"""

from __future__ import annotations

from typing import Final

from referee.engine import PavilionGame
from referee.engine.pavilion import FEATURE_LAYOUT, mark_legal, write_features
from sdk.rl.encoding import MAX_SEATS, Encoding, Field, Writer, moves_by_index

COLOURS: Final = 6
FACTORIES: Final = 9
SUPPLY: Final = 10
STARS: Final = 7
S = MAX_SEATS


class PavilionEncoding(Encoding):
    family = "pavilion"
    fields = (
        Field("factories", (FACTORIES, COLOURS), 0, 1, "tiles of each colour on each factory / 4 "
              "(factories the table does not have: 0)"),
        Field("centre", (COLOURS,), 0, 2, "tiles of each colour in the centre / 22"),
        Field("marker_in_centre", (1,), 0, 1, "1 while the first-player marker is in the centre"),
        Field("supply", (SUPPLY, COLOURS), 0, 1, "one-hot colour of the tile on each supply "
              "space (empty: 0)"),
        Field("bag", (COLOURS,), 0, 1, "tiles of each colour in the bag / 22"),
        Field("depot", (COLOURS,), 0, 1, "tiles of each colour in the depot (discarded) / 22"),
        Field("round", (1,), 0, 1, "the round (1-6) / 6"),
        Field("players", (3,), 0, 1, "one-hot: 2, 3 or 4 players"),
        Field("phase", (4,), 0, 1, "one-hot: take, play (place or pass), bonus, over"),
        Field("wild", (COLOURS,), 0, 1, "one-hot: this round's wild colour"),
        Field("bonus_owed", (1,), 0, 10, "bonus tiles the seat to move still takes / 4"),
        Field("to_move", (S,), 0, 1, "one-hot: the seat to move, 0 = you, 1 = the next seat..."),
        Field("marker_holder", (S,), 0, 1, "one-hot: the seat holding the first-player marker"),
        Field("present", (S,), 0, 1, "1 for each seat at the table (you first)"),
        Field("scores", (S,), -5, 5, "score of each seat / 100"),
        Field("passed", (S,), 0, 1, "1 for each seat that has passed this round"),
        Field("hand", (S, COLOURS), 0, 1, "tiles of each colour in each seat's hand / 22"),
        Field("kept", (S, COLOURS), 0, 1, "tiles of each colour each seat kept / 4"),
        Field("stars", (S, STARS, 6), 0, 1, "1 where a space (star 0-6, space 1-6) is covered"),
        Field("star_colours", (S, STARS, COLOURS), 0, 1, "1 where a star holds a colour"),
    )  # fmt: skip
    moves = moves_by_index(PavilionGame)
    writer = Writer(write_features, mark_legal, FEATURE_LAYOUT)


ENCODING: Final = PavilionEncoding
