"""FirstBot: plays the first legal move, at once. The smallest complete bot.

It is the bot `azul-arena bench latency` measures the referee with: it looks at nothing but the
legal moves, so a move's round trip is the platform's own cost (the SDK never rebuilds the game
for it: see sdk/state.py). Not a built-in entry; run it as `python -m sdk.run
bots.first_bot:FirstBot` or by its path.
"""

from __future__ import annotations

from typing import Any

import sdk


class FirstBot(sdk.Bot):
    """The first of `state.legal_moves()`, in the engine's order."""

    name = "first"
    version = "1.0"

    def choose_move(self, state: Any) -> Any:
        return state.legal_moves()[0]


if __name__ == "__main__":
    sdk.run(FirstBot)
