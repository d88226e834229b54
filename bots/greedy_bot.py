"""GreedyBot: the move with the best immediate outcome for itself, and nothing more.

Idea: try every legal move on a copy of the game and score the result with
`sdk.helpers.evaluate`: the wall points this round's full pattern lines will bring, minus the
floor penalty, plus some credit for bonuses in progress (rows, columns, colours) and for
half-filled pattern lines. It never looks at what the opponents will do next, which is exactly
its weakness: it happily leaves them a factory full of tiles they need.

Cheap (a few milliseconds a move) and a fair first opponent: it beats random almost always.
"""

from __future__ import annotations

import random

import sdk
from sdk.helpers import evaluate


class GreedyBot(sdk.Bot):
    """Best immediate outcome; ties broken at random (seeded with `seed`)."""

    name = "greedy"
    version = "1.0"
    rulesets = sdk.EVERY_RULESET

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        me = state.turn
        best, best_value = [], float("-inf")
        for move in state.legal_moves():
            after = state.copy()
            after.push(move)
            value = evaluate(after, me)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return self.rng.choice(best)


if __name__ == "__main__":
    sdk.run(GreedyBot)
