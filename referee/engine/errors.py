"""The engine's errors: each names what was wrong and where, never a bare traceback."""

from __future__ import annotations


class EngineError(Exception):
    """Base class for everything the engine refuses."""


class IllegalMoveError(EngineError, ValueError):
    """A move that the rules forbid in this position.

    `rule` is a short, stable name for the rule that forbids it (e.g. `row-has-colour`), so that a
    referee can record it and a test can check it; the message explains it in words.
    """

    def __init__(self, rule: str, message: str, move: object = None) -> None:
        named = f" {move}" if move is not None else ""
        super().__init__(f"illegal move{named}: {message} [{rule}]")
        self.rule = rule
        self.reason = message
        self.move = move


class NotationError(EngineError, ValueError):
    """Text that is not a move in the ruleset's notation."""


class RecordError(EngineError, ValueError):
    """A game record that cannot be read or replayed; the message says where (round, move)."""

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,
        move: str | None = None,
        move_number: int | None = None,
        rule: str | None = None,
    ) -> None:
        where = []
        if round is not None:
            where.append(f"round {round}")
        if move_number is not None:
            where.append(f"move {move_number}")
        if move is not None:
            where.append(repr(move))
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.round = round
        self.move = move
        self.move_number = move_number
        self.rule = rule
        self.reason = message
