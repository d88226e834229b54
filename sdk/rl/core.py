"""What every environment of sdk.rl shares: making games, rewards, and reading an action."""

from __future__ import annotations

from typing import Any, Final

from referee.engine import EngineError, Game, new_game
from sdk.rl.encoding import Encoding, encoding_for

REWARDS: Final = ("score", "result")


class ActionError(ValueError):
    """An action that is not a legal move now (the message says which are)."""


def check_setup(ruleset: str, players: int, reward: str, options: dict[str, Any]) -> Encoding:
    """The encoding of a valid setup; ValueError saying what is wrong otherwise."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if not isinstance(players, int) or isinstance(players, bool):
        raise ValueError(f"players is a number of seats (2-4), not {players!r}")
    try:
        new_game(ruleset, players, seed=0, **options)  # the engine checks ruleset, seats, options
        return encoding_for(ruleset, players)
    except EngineError as exc:
        raise ValueError(str(exc)) from None
    except TypeError as exc:  # an option new_game does not take at all
        raise ValueError(f"{ruleset}: {exc}") from None


def start(ruleset: str, players: int, seed: int, options: dict[str, Any]) -> Game:
    return new_game(ruleset, players, seed=seed, **options)


def results(game: Game) -> list[float]:
    """The final result of each seat: (seats ranked below - seats ranked above) / (players - 1):
    +1 the sole winner, -1 the sole last, 0 a two-player tie; the results sum to 0."""
    ranks = game.ranks()
    n = len(ranks)
    return [
        (sum(r > mine for r in ranks) - sum(r < mine for r in ranks)) / (n - 1) for mine in ranks
    ]


def move_of(encoding: Encoding, game: Game, action: Any) -> Any:
    """The move `action` stands for, if it is legal now; ActionError says why not."""
    try:
        index = int(action)
    except (TypeError, ValueError):
        raise ActionError(f"an action is a whole number, not {action!r}") from None
    if 0 <= index < encoding.n_actions:
        move = encoding.moves[index]
        if move in game.legal_moves():  # a C-level scan of shared objects: cheaper than is_legal
            return move
    legal = ", ".join(f"{m.index} ({m})" for m in game.legal_moves()[:12])
    more = " ..." if len(game.legal_moves()) > 12 else ""
    raise ActionError(
        f"{encoding.describe(index)} is not a legal move now; legal actions: {legal}{more} "
        "(pick one where the action mask is 1)"
    )
