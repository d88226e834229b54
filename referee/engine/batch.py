"""Many games moved in one call: the loops of sdk.rl's environments, compiled.

Family-neutral (it calls the Game interface only), so that a step of N games costs N pushes
and not N pushes plus N rounds of interpreted bookkeeping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from librt.vecs import vec

from referee.engine.game import Game

if TYPE_CHECKING:
    from mypy_extensions import u8


def pick_moves(actions: list[Any], mask: vec[u8], moves: Sequence[Any]) -> list[Any] | int:
    """The move of each game's action (an index into `moves`), when the mask row of that game
    (rows of len(moves) entries) is True there; else the number of the first game whose action
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


def push_action(
    game: Game, action: object, mask: vec[u8], moves: Sequence[Any], scored: bool
) -> list[float] | None:
    """Play the move of `action` (an index into `moves`) if `mask` allows it, and return each
    seat's score change (0.0 for all unless `scored`): the PettingZoo environment's step,
    compiled with `credit`. None, with nothing played, for an action the mask does not allow
    (or not an int), for the caller to explain."""
    if type(action) is not int or not 0 <= action < len(mask) or not mask[action]:
        return None
    return push_gains(game, moves[action], scored)


def push_gains(game: Game, move: Any, scored: bool) -> list[float]:
    """Play `move`; each seat's score change (0.0 for all unless `scored`)."""
    before = game.scores
    game.push(move)
    after = game.scores
    return [float(after[s] - before[s]) if scored else 0.0 for s in range(len(after))]


def credit(
    agents: list[str], rewards: dict[str, float], cumulative: dict[str, float], gains: list[float]
) -> None:
    """rewards[agents[s]] = gains[s], and the same added to `cumulative` (PettingZoo's
    _accumulate_rewards), for every seat s."""
    for s in range(len(agents)):
        agent = agents[s]
        rewards[agent] = gains[s]
        cumulative[agent] += gains[s]
