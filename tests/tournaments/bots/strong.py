"""StrongBot: one-ply greedy and deterministic: keeps the floor empty, fills pattern lines,
banks points at the end of a round."""

from __future__ import annotations

import sdk


def _value(state, seat):  # type: ignore[no-untyped-def]
    board = state.to_state()["boards"][seat]
    lines = board["lines"]
    full = sum(1 for i, line in enumerate(lines) if len(line) == i + 1)
    return 10 * board["score"] + 4 * full + sum(len(x) for x in lines) - 6 * len(board["floor"])


class StrongBot(sdk.Bot):
    name = "strong"

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        seat = state.turn
        best, best_value = None, None
        for move in state.legal_moves():  # ties: the first in the engine's fixed order
            after = state.copy()
            after.push(move)
            value = _value(after, seat)
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best


if __name__ == "__main__":
    sdk.run(StrongBot)
