"""WeakBot: deterministic and bad on purpose: dumps tiles on the floor whenever it can."""

from __future__ import annotations

from _common import floor_move, position_hash

import sdk


class WeakBot(sdk.Bot):
    name = "weak"

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        moves = list(state.legal_moves())
        floor = [m for m in moves if floor_move(m)] or moves
        return floor[position_hash(state) % len(floor)]


if __name__ == "__main__":
    sdk.run(WeakBot)
