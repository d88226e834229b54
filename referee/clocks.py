"""Per-seat clocks: the move limit, the time bank, the first-move allowance and the grace margin.

Everything is measured at the referee (send to receipt), so a bot cannot lie about its time.
The grace margin absorbs transport jitter and is never shown to the bot: the bot is told its
limit, and only answers later than limit + bank + grace are timeouts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SeatClock:
    """The clock of one seat for one game."""

    move_time: float
    bank: float = 0.0
    first_move_allowance: float = 0.0
    grace: float = 0.05
    moves_asked: int = 0

    def move_limit(self) -> float:
        """This move's own limit (bank not included), as told to the bot."""
        return self.move_time + (self.first_move_allowance if self.moves_asked == 0 else 0.0)

    def deadline(self) -> float:
        """Seconds after the request after which the answer is a timeout."""
        return self.move_limit() + self.bank + self.grace

    def charge(self, elapsed: float) -> bool:
        """Account one answered move taking `elapsed` seconds; False when it was a timeout.

        Overruns of the move limit are paid from the bank; the grace margin is free, so a bot
        that answers within limit + grace keeps its whole bank.
        """
        limit = self.move_limit()
        self.moves_asked += 1
        over = elapsed - limit
        if over <= self.grace:
            return True
        if over <= self.bank + self.grace:
            self.bank = max(0.0, self.bank - over)
            return True
        self.bank = 0.0
        return False

    def expire(self) -> None:
        """Account a move the seat did not answer in time."""
        self.moves_asked += 1
        self.bank = 0.0
