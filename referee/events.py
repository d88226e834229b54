"""Events of a match, as plain objects: the CLI prints them, the server streams them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MatchStarted:
    """The match started."""

    match_id: str
    ruleset: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class MovePlayed:
    """A move was played (by the seat, or substituted for it by the referee)."""

    match_id: str
    ply: int
    seat: int
    move: str
    elapsed: float
    substituted: bool
    state: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class SeatFaulted:
    """A seat faulted: a timeout, an illegal or malformed answer, a crash, a disconnect..."""

    match_id: str
    seat: int
    fault: str
    strikes: int
    forfeited: bool
    detail: str = ""


@dataclass(frozen=True)
class MatchEnded:
    """The match ended."""

    match_id: str
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    terminations: tuple[str, ...]
    reason: str


MatchEvent = MatchStarted | MovePlayed | SeatFaulted | MatchEnded
