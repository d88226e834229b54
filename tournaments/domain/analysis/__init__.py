"""Game analysis: every decision of a recorded game valued by the strongest engine at hand
(the best move, the points the played one lost, a label), as `replay analyse` prints it and the
viewer draws it. The engine is behind one function (`engine.value_moves`)."""

from typing import Final

# Simulations per decision (bench analyse: see docs/improving.md). Here, not in `engine`, so that
# a command's --help shows it without loading the engine and the expert bot.
DEFAULT_BUDGET: Final = 8000
