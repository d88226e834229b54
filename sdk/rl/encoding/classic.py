"""The classic family's encoding (`azul`, `azul-mini`, `azul-gray`, `azul-greenbox`).

Reads the engine's compact fields directly (the lists and bit masks of ClassicGame) rather than
`to_state()`'s strings: a training step must cost about as much as a move. tests/rl pins every
field to `to_state()` on random games of every ruleset, so an engine change that moves a field
fails there, not silently in a student's training run.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from referee.engine import OVER, WALL, ClassicGame, Game
from sdk.rl.encoding import MAX_SEATS, Encoding, Field, Floats, Ints, moves_by_index, one_hot
from sdk.rl.encoding import packed8 as unpack8

COLOURS: Final = 5
FACTORIES: Final = 9
PHASES: Final = {"take": 0, WALL: 1, OVER: 2}
_LOW_CELLS: Final = 15  # wall cells 0-14 (rows 1-3) in the first int, 15-24 in the second
_CELL_MASK: Final = (1 << (3 * _LOW_CELLS)) - 1
S = MAX_SEATS


def _factory_table() -> Floats:
    """Tiles of each colour / 4 for every factory code (3 bits of count per colour)."""
    codes = np.arange(1 << 15)
    counts = (codes[:, None] >> (3 * np.arange(COLOURS))) & 7
    return (counts / 4).astype(np.float32)


FACTORY_TABLE: Final = _factory_table()


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

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self._pad = [0] * (FACTORIES - {2: 5, 3: 7, 4: 9}[players])
        self._players_hot = np.eye(3, dtype=np.float32)[players - 2]

    def gather(self, game: Game, seat: int) -> list[int]:
        """[factories x9, centre, marker_in_centre, bag, lid, round, phase, wall_line, to_move,
        marker_holder] + per seat from `seat` on: score, floor, cells low, cells high; then
        pattern-line colours and counts (5 per seat, from `seat` on)."""
        g: Any = game
        p = self.players
        s = seat
        phase = PHASES[g.phase]
        marker = g._next_starter
        row: list[int] = g._factories + self._pad
        row += [
            g._centre,
            g._marker_in_centre,
            g._bag,
            g._lid,
            g.round,
            phase,
            g._wall_next % 5 if phase == 1 else -1,
            (g.turn - s) % p if phase != 2 else -1,
            (marker - s) % p if marker >= 0 else -1,
        ]
        scores, floors, cells = g._scores, g._floor_count, g._cells
        row += scores[s:] + scores[:s] + floors[s:] + floors[:s]
        cells = cells[s:] + cells[:s]
        row += [c & _CELL_MASK for c in cells] + [c >> (3 * _LOW_CELLS) for c in cells]
        b = 5 * s
        colours, counts = g._line_colour, g._line_count
        row += colours[b:] + colours[:b] + counts[b:] + counts[:b]
        return row

    def decode(self, rows: Ints) -> Floats:
        n, p = rows.shape[0], self.players
        out = np.zeros((n, self.size), np.float32)

        def put(name: str, values: Any) -> None:
            out[:, self.offsets[name]] = np.reshape(values, (n, -1))

        def put_seats(name: str, values: Any) -> None:
            out[:, self.offsets[name]].reshape(n, S, -1)[:, :p] = np.reshape(values, (n, p, -1))

        put("factories", FACTORY_TABLE[rows[:, :FACTORIES]])
        tiles = unpack8(rows[:, [9, 11, 12]], COLOURS) / np.float32(20)
        put("centre", tiles[:, 0])
        put("marker_in_centre", rows[:, 10])
        put("bag", tiles[:, 1])
        put("lid", tiles[:, 2])
        put("round", rows[:, 13] / np.float32(10))
        out[:, self.offsets["players"]] = self._players_hot
        put("phase", one_hot(rows[:, 14], 3))
        put("wall_line", one_hot(rows[:, 15], 5))
        put("to_move", one_hot(rows[:, 16], S))
        put("marker_holder", one_hot(rows[:, 17], S))
        put_seats("present", np.ones((n, p), np.float32))
        at = 18
        put_seats("scores", rows[:, at : at + p] / np.float32(100))
        put_seats("floor", rows[:, at + p : at + 2 * p] / np.float32(7))
        at += 2 * p
        low = (rows[:, at : at + p, None] >> (3 * np.arange(_LOW_CELLS))) & 7
        high = (rows[:, at + p : at + 2 * p, None] >> (3 * np.arange(25 - _LOW_CELLS))) & 7
        cells = np.concatenate([low, high], axis=2).reshape(n, p, 5, 5)  # colour + 1, 0 empty
        put_seats("wall", cells > 0)
        hot = one_hot(cells - 1, COLOURS)  # (n, p, row, column, colour)
        put_seats("wall_rows", hot.max(axis=3))
        put_seats("wall_columns", hot.max(axis=2))
        at += 2 * p
        colours = rows[:, at : at + 5 * p].reshape(n, p, 5)
        counts = rows[:, at + 5 * p : at + 10 * p].reshape(n, p, 5)
        fill = counts / np.arange(1, 6, dtype=np.float32)
        put_seats("lines", one_hot(colours, COLOURS) * fill[..., None])
        return out
