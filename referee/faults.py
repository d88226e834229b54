"""How a seat's game ends and what goes wrong on the way: `Termination` (the closed set, the
wire's enum by the same names), `BotFault` (a fault, raised where it is noticed), `Fault` (the
record of one in a match: its replay's `faults` list) and `FATAL` (the faults after which a seat
cannot go on, whatever the fault policy).

Its own module, below the sessions, the clocks and the match, so that each of them can name a
fault without importing the others."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """How a seat's game ended; the wire's `Termination` enum, by the same names."""

    OK = "ok"
    TIMEOUT = "timeout"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    CRASH = "crash"
    DISCONNECT = "disconnect"
    NO_HELLO = "no_hello"
    VERSION_MISMATCH = "version_mismatch"
    BAD_TOKEN = "bad_token"
    MEMORY = "memory"
    UNSUPPORTED_RULESET = "unsupported_ruleset"


# Faults after which the seat cannot go on, whatever the policy: nobody is left to ask.
FATAL = frozenset(
    {
        Termination.CRASH,
        Termination.MEMORY,
        Termination.DISCONNECT,
        Termination.NO_HELLO,
        Termination.VERSION_MISMATCH,
        Termination.BAD_TOKEN,
        Termination.UNSUPPORTED_RULESET,
    }
)


class BotFault(Exception):
    """A seat-level fault: `kind` is a termination (timeout, malformed, disconnect...)."""

    def __init__(self, kind: str, detail: str = "", fatal: bool | None = None) -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = Termination(kind)
        self.detail = detail
        self.fatal = fatal  # None: as the kind says (FATAL)

    @property
    def forfeits(self) -> bool:
        """Whether the seat cannot go on after it, whatever the policy."""
        return self.kind in FATAL if self.fatal is None else self.fatal


@dataclass(frozen=True)
class Fault:
    """One fault of a match, as its replay records it: at which ply (moves played before it),
    whose, what kind, what was said, and whether the seat forfeited with it."""

    ply: int
    seat: int
    fault: Termination
    detail: str
    forfeited: bool

    def as_dict(self) -> dict[str, Any]:
        """The replay's form (the kind as its plain name)."""
        return dict(asdict(self), fault=str(self.fault))
