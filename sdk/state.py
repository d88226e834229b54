"""The `state` a bot's choose_move receives: the referee's engine Game, built on first use.

Rebuilding a Game from a move request costs more than the rest of the bot's side of a move
together (about 70 us of a bot process's time, woken cold for each move), and many moves
never need it: a bot that answers from the legal moves alone, or one that has its own model of
the game. So the SDK hands choose_move this stand-in, which builds the real Game the first time
any of its attributes is used and from then on forwards everything to it. `legal_moves()` alone is
answered from the request's own list of moves while the Game is not built yet: the same moves,
in the same order, read through a table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any


class LazyGame:
    """A Game from a move request (see the module docstring). Use it as the Game it stands for:
    `state.legal_moves()`, `state.copy()`, `state.push(move)`, `state.scores`, `str(state)`...;
    `state.game` is the Game itself (for isinstance checks or a type-strict helper). Local play
    (sdk.local) hands bots the same stand-in, so a bot tested locally sees what it will see under
    the referee."""

    __slots__ = ("_build", "_game", "_legal", "_read_legal")

    def __init__(
        self, build: Callable[[], Any], legal_moves: Callable[[], tuple[Any, ...]]
    ) -> None:
        """`build()` makes the Game; `legal_moves()` gives its legal moves without it (from the
        request's notation through `read_moves`, or a list the caller has already)."""
        self._build = build
        self._read_legal = legal_moves
        self._game: Any = None
        self._legal: tuple[Any, ...] | None = None

    @property
    def game(self) -> Any:
        """The engine Game, built now if it was not yet."""
        if self._game is None:
            try:
                self._game = self._build()
            except AttributeError as exc:  # else Python would retry through __getattr__("game")
                raise RuntimeError(f"cannot rebuild the game from the request: {exc}") from exc
        return self._game

    def legal_moves(self) -> tuple[Any, ...]:
        """The legal moves (from the request while the Game is not built: no rebuild needed)."""
        if self._game is not None:  # pushed moves may have changed them since
            return self._game.legal_moves()  # type: ignore[no-any-return]
        if self._legal is None:
            self._legal = self._read_legal()
        return self._legal

    def _index_of(self, move: Any) -> int | None:
        """`move`'s index among the request's legal moves, found without notation when the bot
        returned one of the moves `legal_moves()` gave it (the usual case); else None."""
        if self._game is not None or self._legal is None:
            return None  # the moves it saw may not be the request's any more
        try:
            return self._legal.index(move)  # by identity first, at C speed
        except ValueError:
            return None

    def __getattr__(self, name: str) -> Any:
        # Only called for what LazyGame itself lacks: everything a Game has. Dunder lookups
        # (copy, pickle) and unset slots stay here, or they would recurse into `game`.
        if name.startswith("__") or name in _OWN:
            raise AttributeError(name)
        return getattr(self.game, name)

    def __copy__(self) -> Any:
        return self.game.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        memo[id(self)] = twin = self.game.copy()
        return twin

    def __reduce_ex__(self, protocol: Any) -> Any:
        return self.game.__reduce_ex__(protocol)  # pickles as the Game it stands for

    def __str__(self) -> str:
        return str(self.game)

    def __repr__(self) -> str:
        return repr(self.game)


def read_game(message: Any) -> Any:
    """The engine Game a move request's `state` (a GameState message) describes."""
    from referee.engine import game_from_state  # loaded by then, as below
    from referee.protocol.codec import decode_state

    return game_from_state(decode_state(message))


def read_moves(ruleset: str, texts: Sequence[str]) -> tuple[Any, ...]:
    """The moves written `texts` (a move request's legal moves), as the engine's own Move
    objects, through the family's table of moves by notation: no game needed."""
    return tuple(map(_move_of(ruleset), texts))


@functools.cache
def _move_of(ruleset: str) -> Callable[[str], Any]:
    """The move for a notation in `ruleset` (its family's table's lookup), found once per
    ruleset: the import and the ruleset's lookup were a tenth of `read_moves` on every move."""
    from referee.engine import Game  # loaded by then: the SDK imports it during the handshake

    lookup: Callable[[str], Any] = Game.family_of(ruleset).moves_by_notation().__getitem__
    return lookup


_OWN = frozenset({*LazyGame.__slots__, "game"})  # never forwarded: they would recurse
