"""The classic family's encoding (`azul`, `azul-mini`, `azul-gray`, `azul-greenbox`): ENCODING,
the `rl` part of the family's descriptor.

The fields say what each block of the vector means; the numbers are written by the engine's
compiled referee/engine/classic/features.py (whose LAYOUT the fields must match, checked when the
encoding is made). tests/rl pins every field to `to_state()` on random games of every ruleset, so
an engine change that moves a field fails there, not silently in a student's training run.
"""

from __future__ import annotations

from typing import Final

from referee.engine import ClassicGame
from referee.engine.classic import FEATURE_LAYOUT, mark_legal, write_features
from sdk.rl.encoding import MAX_SEATS, Encoding, Field, Writer, moves_by_index

COLOURS: Final = 5
FACTORIES: Final = 9
S = MAX_SEATS


class ClassicEncoding(Encoding):
    family = "classic"
    fields = (
        Field("factories", (FACTORIES, COLOURS), 0, 1, "tiles of each colour on each factory / 4 "
              "(factories the table does not have: 0)"),
        Field("centre", (COLOURS,), 0, 1, "tiles of each colour in the centre / 20"),
        Field("marker_in_centre", (1,), 0, 1, "1 while the first-player marker is in the centre"),
        Field("bag", (COLOURS,), 0, 1, "tiles of each colour in the bag / 20"),
        Field("lid", (COLOURS,), 0, 1, "tiles of each colour in the box lid / 20"),
        Field("round", (1,), 0, 5, "the round (1 = first) / 10"),
        Field("players", (3,), 0, 1, "one-hot: 2, 3 or 4 players"),
        Field("phase", (3,), 0, 1, "one-hot: take, wall (azul-gray: choose a column), over"),
        Field("wall_line", (5,), 0, 1, "azul-gray, phase wall: one-hot of the pattern line whose "
              "tile is being placed"),
        Field("to_move", (S,), 0, 1, "one-hot: the seat to move, 0 = you, 1 = the next seat..."),
        Field("marker_holder", (S,), 0, 1, "one-hot: the seat whose floor holds the first-player "
              "marker (it starts the next round)"),
        Field("present", (S,), 0, 1, "1 for each seat at the table (you first)"),
        Field("scores", (S,), -5, 5, "score of each seat / 100"),
        Field("floor", (S,), 0, 1, "occupied floor spaces of each seat / 7 (the marker counts)"),
        Field("lines", (S, 5, COLOURS), 0, 1, "pattern line d of each seat: tiles of colour c "
              "/ (d + 1), so 1 = full"),
        Field("wall", (S, 5, 5), 0, 1, "1 where a wall space (row, column) is tiled"),
        Field("wall_rows", (S, 5, COLOURS), 0, 1, "1 where a wall row holds a colour"),
        Field("wall_columns", (S, 5, COLOURS), 0, 1, "1 where a wall column holds a colour "
              "(azul-gray's rule; on the coloured wall it follows from the row)"),
    )  # fmt: skip
    moves = moves_by_index(ClassicGame)
    writer = Writer(write_features, mark_legal, FEATURE_LAYOUT)


ENCODING: Final = ClassicEncoding
