"""PacerBot: SteadyBot's deterministic moves, a few milliseconds each (AZUL_TEST_PACE seconds,
default 0.003), so that a short tournament lasts long enough to be changed while it runs."""

from __future__ import annotations

import os
import time

from _common import floor_move, position_hash

import sdk


class PacerBot(sdk.Bot):
    name = "pacer"

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        time.sleep(float(os.environ.get("AZUL_TEST_PACE", "0.003")))
        moves = list(state.legal_moves())
        good = [m for m in moves if not floor_move(m)] or moves
        return good[position_hash(state) % len(good)]


if __name__ == "__main__":
    sdk.run(PacerBot)
