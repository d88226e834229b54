"""The worker's slots shared among the kinds of work by weight, so that a saturated ladder never
starves the rest: challenges, version tests and game analyses each get their share of the
slot time whenever any of them wait, and ranked games take everything the others leave.

It is stride scheduling (Waldspurger's, as fishtest shares its workers among tests by
throughput weights), charged in slot-seconds rather than in starts: a kind's `pass` grows by
the seconds its work held a slot divided by its share, and the next free slot goes to the
waiting kind with the lowest pass. A start is charged at once with the kind's usual length (a
running mean), corrected by the true length when it ends, so several slots filled in one turn
do not all go to the same kind. A kind that had nothing waiting does not save up credit: when it
comes back its pass is raised to the scheduler's clock (the pass of the last kind chosen), so it
is served at the next free slot, then at its share.

The order is work-conserving: `order` ranks every waiting kind, and the worker takes the first
that can actually start now (a test whose versions are all playing waits its turn without
holding a slot). Nothing here touches the database; each worker keeps its own, and the shares
hold across workers because each divides its own slots by them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

RANKED, CHALLENGE, ANALYSIS, TEST = "ranked", "challenge", "analysis", "test"
# The order among equals (at a worker's start, mostly): what a person waits for at a page
# first, then the ladder, then version tests.
KINDS = (CHALLENGE, ANALYSIS, RANKED, TEST)
# Ranked games first, yet never less than 1 slot in 8 for each other kind while it waits.
DEFAULT_SHARES: dict[str, int] = {RANKED: 5, CHALLENGE: 1, TEST: 1, ANALYSIS: 1}
FIRST_GUESS = 5.0  # seconds a kind's work is taken to last before one has been timed
SMOOTHING = 0.2  # the weight of the newest length in a kind's running mean


def shares_text(shares: Mapping[str, int]) -> str:
    """'ranked 5, challenge 1, analysis 1, test 1'."""
    return ", ".join(
        f"{kind} {shares.get(kind, 0)}" for kind in (RANKED, CHALLENGE, ANALYSIS, TEST)
    )


@dataclass
class SlotShares:
    """`order(waiting)` the kinds to try for a free slot; `started(kind)` when one starts (the
    length charged), `finished(kind, seconds, charged)` when it ends. `shares`: kind -> weight
    (0: never)."""

    shares: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_SHARES))
    # What each kind has been charged, in slot-seconds per unit of share.
    passes: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    usual: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, FIRST_GUESS))
    clock: float = 0.0

    def set_shares(self, shares: Mapping[str, int]) -> None:
        """New weights (an organiser changed them): from the next choice on."""
        self.shares = {kind: max(0, int(shares.get(kind, 0))) for kind in KINDS}

    def order(self, waiting: Collection[str]) -> list[str]:
        """The waiting kinds, the one owed most slot time first; a kind whose share is 0 last
        (it has the slots nothing else wants)."""
        shared = [kind for kind in KINDS if kind in waiting and self.shares.get(kind, 0) > 0]
        for kind in shared:  # no credit saved up while it had nothing to do
            self.passes[kind] = max(self.passes[kind], self.clock)
        spare = [kind for kind in KINDS if kind in waiting and kind not in shared]
        return sorted(shared, key=lambda kind: (self.passes[kind], KINDS.index(kind))) + spare

    def started(self, kind: str) -> float:
        """Charge a start with the kind's usual length, returned (for `finished`)."""
        self.clock = max(self.clock, self.passes[kind])
        charged = self.usual[kind]
        self.passes[kind] += charged / self._weight(kind)
        return charged

    def finished(self, kind: str, seconds: float, charged: float) -> None:
        """Charge the true length in place of the one charged at its start."""
        seconds = max(0.0, seconds)
        self.passes[kind] += (seconds - charged) / self._weight(kind)
        self.usual[kind] += SMOOTHING * (seconds - self.usual[kind])

    def _weight(self, kind: str) -> int:
        # A kind with no share (it runs in spare slots) is charged as if its share were 1.
        return max(1, self.shares.get(kind, 0))
