"""Many games moved in one call: the loop of sdk.rl's vectorised environment, compiled.

Family-neutral (it calls the Game interface only), so that a step of N games costs N pushes
and not N pushes plus N rounds of interpreted bookkeeping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.game import Game


def pick_moves(actions: list[Any], mask: bytes, moves: Sequence[Any]) -> list[Any] | int:
    """The move of each game's action (an index into `moves`), when the mask row of that game
    (rows of len(moves) bytes) has a 1 there; else the number of the first game whose action
    does not, for the caller to explain."""
    width = len(moves)
    picked: list[Any] = []
    for i in range(len(actions)):
        action = actions[i]
        if not isinstance(action, int) or not 0 <= action < width or not mask[i * width + action]:
            return i
        picked.append(moves[action])
    return picked


def push_all(games: list[Game], moves: list[Any], gains: list[int]) -> list[int]:
    """Play moves[i] in games[i]; append each game's score changes, seat by seat, to `gains`;
    return the numbers of the games that are now over."""
    ended: list[int] = []
    for i in range(len(games)):
        game = games[i]
        before = game.scores
        game.push(moves[i])
        after = game.scores
        for s in range(len(after)):
            gains.append(after[s] - before[s])
        if game.is_over():
            ended.append(i)
    return ended
