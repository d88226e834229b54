"""Per-seat clocks: the move limit, the time bank, the first-move allowance and the grace margin.

Everything is measured at the referee, so a bot cannot lie about its time. The grace margin
absorbs transport jitter and is never shown to the bot: the bot is told its limit, and only
answers later than limit + bank + grace are timeouts.

Two clocks measure a move (`CLOCKS`):
- `wall` (the default): from sending the request to receiving the reply. On a loaded machine a
  bot gets less thinking for the same limit.
- `cpu`: the CPU time the bot's processes (every thread and child, in its cgroup) used from the
  request to the reply, so load from others costs it nothing. A wall-clock ceiling,
  CPU_CEILING times the limit (and bank) plus the grace, still ends a move in which the bot
  sleeps, blocks or is starved.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.faults import BotFault, Termination


class Clock(StrEnum):
    """What a move's time is (see the module docstring)."""

    WALL = "wall"
    CPU = "cpu"


CLOCKS = tuple(Clock)
UNLIMITED = 10**7  # seconds (some 4 months): the deadline of a clock that is not enforced
CPU_CEILING = 4.0  # the cpu clock's wall-clock ceiling, in multiples of the move's limit + bank


@dataclass
class SeatClock:
    """The clock of one seat for one game."""

    move_time: float
    bank: float = 0.0
    first_move_allowance: float = 0.0
    grace: float = 0.05
    moves_asked: int = 0
    kind: Clock = Clock.WALL  # what a move's time is
    ceiling: float = CPU_CEILING  # cpu: the wall-clock ceiling, in multiples of limit + bank
    # False: no move is ever late (a rerun stepped through in a debugger); the bot is still
    # told its limit, so it thinks as it did.
    enforced: bool = True

    def __post_init__(self) -> None:
        self.kind = Clock(self.kind)  # a plain name ("cpu") is taken too

    def wall_deadline(self) -> float:
        """Wall seconds after the request after which the move is a timeout: the deadline on
        the wall clock; on the cpu clock its ceiling."""
        if not self.enforced:
            return UNLIMITED
        if self.kind is Clock.CPU:
            return self.ceiling * (self.move_limit() + self.bank) + self.grace
        return self.deadline()

    def move_limit(self) -> float:
        """This move's own limit (bank not included), as told to the bot."""
        return self.move_time + (self.first_move_allowance if self.moves_asked == 0 else 0.0)

    def deadline(self) -> float:
        """Seconds after the request after which the answer is a timeout."""
        return self.move_limit() + self.bank + self.grace

    def counts_cpu(self) -> bool:
        """Whether a move's limit counts the bot's CPU seconds (the cpu clock, enforced), under
        the wall-clock ceiling; else it counts wall seconds."""
        return self.kind is Clock.CPU and self.enforced

    def cpu_limit(self) -> float | None:
        """The CPU seconds after which the move is a timeout; None on the wall clock."""
        return self.deadline() if self.counts_cpu() else None

    def charge(self, elapsed: float) -> BotFault | None:
        """Account one answered move taking `elapsed` seconds (of CPU on the cpu clock): None
        when it was in time, else the timeout verdict.

        Overruns of the move limit are paid from the bank; the grace margin is free, so a bot
        that answers within limit + grace keeps its whole bank.
        """
        limit = self.move_limit()
        self.moves_asked += 1
        if not self.enforced:
            return None
        over = elapsed - limit
        if over <= self.grace:
            return None
        if over <= self.bank + self.grace:
            self.bank = max(0.0, self.bank - over)
            return None
        self.bank = 0.0
        said = "used {:.3f}s of CPU" if self.counts_cpu() else "answered after {:.3f}s"
        return self.timeout(said.format(elapsed))

    @staticmethod
    def timeout(why: str = "") -> BotFault:
        """The verdict on a move not answered in time, saying `why` (the one place a timeout
        is decided into a fault: the session's deadline and `charge` both use it)."""
        return BotFault(Termination.TIMEOUT, why)

    def expire(self) -> None:
        """Account a move the seat did not answer in time."""
        self.moves_asked += 1
        self.bank = 0.0


class ClockError(ValueError):
    """The clock asked for cannot be kept on this machine."""


def require_cpu_clock() -> None:
    """Raise ClockError, saying why and what to do, where the cpu clock cannot count a bot's
    CPU: it reads each bot's cgroup (referee.cgroups), which needs a writable cgroup tree."""
    from referee.cgroups import layout

    if layout() is None:
        raise ClockError(
            "--clock cpu counts each bot's CPU time in its own cgroup, and this referee cannot "
            "make cgroups here (run it as root, or in a cgroup v2 tree that delegates the cpu, "
            "memory and pids controllers to it); use --clock wall"
        )
