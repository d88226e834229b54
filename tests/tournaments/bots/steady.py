"""SteadyBot: a deterministic middling player: a move chosen by a hash of the position,
avoiding the floor when it can. Same position, same move, in any process."""

from __future__ import annotations

from _common import floor_move, position_hash

import sdk


class SteadyBot(sdk.Bot):
    name = "steady"

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        moves = list(state.legal_moves())
        good = [m for m in moves if not floor_move(m)] or moves
        return good[position_hash(state) % len(good)]


if __name__ == "__main__":
    sdk.run(SteadyBot)
