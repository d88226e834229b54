"""The Summer Pavilion family's encoding (`pavilion`, `pavilion-mono`, option `wild_order`).

Reads the engine's compact fields directly, as the classic encoding does (see there why);
tests/rl pins every field to `to_state()`.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from referee.engine import BONUS, OVER, PLAY, TAKE, Game, PavilionGame
from sdk.rl.encoding import MAX_SEATS, Encoding, Field, Floats, Ints, moves_by_index, one_hot
from sdk.rl.encoding import bits as low_bits
from sdk.rl.encoding import packed8 as unpack8

COLOURS: Final = 6
FACTORIES: Final = 9
SUPPLY: Final = 10
STARS: Final = 7
PHASES: Final = {TAKE: 0, PLAY: 1, BONUS: 2, OVER: 3}
S = MAX_SEATS


def _factory_table() -> Floats:
    """Tiles of each colour / 4 for every factory code (3 bits of count per colour)."""
    codes = np.arange(1 << (3 * COLOURS))
    counts = (codes[:, None] >> (3 * np.arange(COLOURS))) & 7
    return (counts / 4).astype(np.float32)


FACTORY_TABLE: Final = _factory_table()


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

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self._pad = [0] * (FACTORIES - {2: 5, 3: 7, 4: 9}[players])
        self._players_hot = np.eye(3, dtype=np.float32)[players - 2]

    def gather(self, game: Game, seat: int) -> list[int]:
        """[factories x9, centre, marker_in_centre, supply x10, bag, depot, round, phase, wild,
        bonus_owed, to_move, marker_holder, passed (rotated bits)] + per seat from `seat` on:
        score, hand, kept; then the 7 stars of each seat from `seat` on."""
        g: Any = game
        p = self.players
        s = seat
        phase = PHASES[g.phase]
        marker = g._marker_holder
        passed = g._passed
        row: list[int] = g._factories + self._pad
        row.append(g._centre)
        row.append(g._marker_in_centre)
        row += g._supply
        row += [
            g._bag,
            g._depot,
            g.round,
            phase,
            g.wild,
            g.bonus_owed,
            (g.turn - s) % p if phase != 3 else -1,
            (marker - s) % p if marker >= 0 else -1,
            ((passed >> s) | (passed << (p - s))) & ((1 << p) - 1),
        ]
        scores, hands, kept = g._scores, g._hands, g._kept
        row += scores[s:] + scores[:s] + hands[s:] + hands[:s] + kept[s:] + kept[:s]
        cells = g._star_cells
        b = STARS * s
        row += cells[b:] + cells[:b]
        return row

    def decode(self, rows: Ints) -> Floats:
        n, p = rows.shape[0], self.players
        out = np.zeros((n, self.size), np.float32)

        def put(name: str, values: Any) -> None:
            out[:, self.offsets[name]] = np.reshape(values, (n, -1))

        def put_seats(name: str, values: Any) -> None:
            out[:, self.offsets[name]].reshape(n, S, -1)[:, :p] = np.reshape(values, (n, p, -1))

        put("factories", FACTORY_TABLE[rows[:, :FACTORIES]])
        put("centre", unpack8(rows[:, 9], COLOURS) / np.float32(22))
        put("marker_in_centre", rows[:, 10])
        at = 11 + SUPPLY
        put("supply", one_hot(rows[:, 11:at], COLOURS))
        tiles = unpack8(rows[:, at : at + 2], COLOURS) / np.float32(22)
        put("bag", tiles[:, 0])
        put("depot", tiles[:, 1])
        put("round", rows[:, at + 2] / np.float32(6))
        out[:, self.offsets["players"]] = self._players_hot
        put("phase", one_hot(rows[:, at + 3], 4))
        put("wild", one_hot(rows[:, at + 4], COLOURS))
        put("bonus_owed", rows[:, at + 5] / np.float32(4))
        put("to_move", one_hot(rows[:, at + 6], S))
        put("marker_holder", one_hot(rows[:, at + 7], S))
        put_seats("passed", low_bits(rows[:, at + 8], p))
        put_seats("present", np.ones((n, p), np.float32))
        at += 9
        put_seats("scores", rows[:, at : at + p] / np.float32(100))
        put_seats("hand", unpack8(rows[:, at + p : at + 2 * p], COLOURS) / np.float32(22))
        put_seats("kept", unpack8(rows[:, at + 2 * p : at + 3 * p], COLOURS) / np.float32(4))
        at += 3 * p
        stars = rows[:, at : at + STARS * p].reshape(n, p, STARS)
        cells = (stars[..., None] >> (3 * np.arange(6))) & 7  # (n, p, star, space): colour + 1
        put_seats("stars", cells > 0)
        put_seats("star_colours", one_hot(cells - 1, COLOURS).max(axis=3))
        return out
