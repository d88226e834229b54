"""The built-in bots by name: `module:Class`, launched as `python -m sdk.run module:Class`."""

from __future__ import annotations

BUILTIN_BOTS: dict[str, str] = {
    "random": "bots.random_bot:RandomBot",
    "greedy": "bots.greedy_bot:GreedyBot",
    "search": "bots.search_bot:SearchBot",
    "mcts": "bots.mcts_bot:MctsBot",
}
