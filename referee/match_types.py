"""What a match is asked to be and what it gives: `MatchConfig`, `SeatResult`, `MatchResult`, and
the closed sets they name: `FaultPolicy` (what a fault costs), `Clock` (what a move's time is,
from referee.clocks) and `Termination` (how a seat's game ended, from referee.faults). Plain
data: the Arena plays with them, the service turns them into messages, and the layers above read
them (`from referee import MatchConfig, Termination`). The enums are str-valued: JSON, the store
and the replay hold their plain names."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from referee.clocks import CLOCKS, CPU_CEILING, Clock
from referee.faults import Termination

__all__ = [
    "FAULT_POLICIES",
    "TERMINATIONS",
    "Clock",
    "FaultPolicy",
    "MatchConfig",
    "MatchResult",
    "SeatResult",
    "Termination",
]


class FaultPolicy(StrEnum):
    """What a timeout, an illegal or a malformed answer costs a seat."""

    RANDOM = "random"  # a random legal move is played for it and it gets a strike
    FORFEIT = "forfeit"  # it forfeits at once


TERMINATIONS = tuple(Termination)
FAULT_POLICIES = tuple(FaultPolicy)


@dataclass
class MatchConfig:
    """Rules, clocks and fault policy of one match (times in seconds)."""

    ruleset: str = "azul"
    seed: int | None = None
    first_player: int = 0
    # The ruleset's options, as new_game's keyword arguments (checked by its family's schema).
    options: dict[str, str] = field(default_factory=dict)
    time_per_move: float = 1.0
    time_bank: float = 0.0
    first_move_allowance: float = 0.0
    grace: float = 0.05
    fault_policy: FaultPolicy = FaultPolicy.RANDOM  # a plain name is taken and turned into one
    max_strikes: int = 3
    # A seat's own move time where it differs from time_per_move (a person's seat); None keeps it.
    seat_time_per_move: tuple[float | None, ...] = ()
    # Each seat's bot seed (GameStart.bot_seed), in seat order; empty: derived from `seed` and
    # the match id (referee.seeds), so a match played again with the same seed replays.
    bot_seeds: tuple[int, ...] = ()
    # What a move's time is (referee.clocks): wall, or cpu (the CPU its processes used, from
    # their cgroup, under a wall-clock ceiling of `ceiling` times the limit); a plain name is
    # taken and turned into a Clock.
    clock: Clock = Clock.WALL
    ceiling: float = CPU_CEILING
    # False: no move is late, whatever it takes (replay rerun --no-time-limit, for a debugger);
    # the bots are still told their limits.
    time_limit: bool = True
    # True: the bots are told their seats, not who sits in them (GameStart.names "seat 1",
    # "seat 2", ...): a bot cannot pick out an opponent by name, to play along with a friend's
    # bot or against a rival's, nor learn who else is in a contest. Records keep the names.
    anonymous: bool = False

    def __post_init__(self) -> None:
        """Refuse settings no match can run with, saying which one and why."""
        if not self.time_per_move > 0:
            raise ValueError(f"time per move must be positive, not {self.time_per_move}")
        for name in ("time_bank", "first_move_allowance", "grace"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name.replace('_', ' ')} cannot be negative")
        if self.clock not in CLOCKS:
            raise ValueError(f"clock {self.clock!r} is not {' or '.join(CLOCKS)}")
        self.clock = Clock(self.clock)
        if not self.ceiling >= 1:
            raise ValueError(
                f"the cpu clock's ceiling is a multiple of the limit, at least 1, "
                f"not {self.ceiling}"
            )
        if self.fault_policy not in FAULT_POLICIES:
            raise ValueError(
                f"fault policy {self.fault_policy!r} is not {' or '.join(FAULT_POLICIES)}"
            )
        self.fault_policy = FaultPolicy(self.fault_policy)
        if self.max_strikes < 1:
            raise ValueError("max strikes must be at least 1")
        if any(t is not None and not t > 0 for t in self.seat_time_per_move):
            raise ValueError("a seat's time per move must be positive")
        from referee.engine import EngineError, get_ruleset, new_game

        try:  # the engine judges the ruleset and its options (a wild order for classic Azul)
            rules = get_ruleset(self.ruleset)
            if self.options:
                new_game(self.ruleset, rules.min_players, seed=0, first_player=0, **self.options)
        except (EngineError, TypeError) as exc:
            raise ValueError(str(exc)) from None


@dataclass
class SeatResult:
    """How one seat did."""

    entry: str
    score: int
    rank: int
    termination: Termination
    strikes: int
    faults: dict[str, int]
    move_time_total: float
    moves: int
    bot_name: str = ""
    log_path: str = ""
    cpu_time: float | None = None  # seconds of CPU its processes used during the game
    detail: str = ""  # what its last fault said (a crash: the last line of its traceback)
    substituted: int = 0  # of `moves`, those the referee played for it after a fault


@dataclass
class MatchResult:
    """The outcome of one match; `record` is the replay (engine record + referee facts)."""

    seats: list[SeatResult]
    scores: list[int]
    ranks: list[int]
    record: dict[str, Any]
    duration: float
    match_id: str = ""
    reason: str = "completed"  # or "forfeit" (a seat forfeited)
