"""Uses its clock: thinks for half its budget, logs the clock, and checks it is sane."""

import time

import sdk


class ClockedBot(sdk.Bot):
    def choose_move(self, state):
        budget = self.clock.budget(0.5)
        assert 0 < budget <= self.clock.move_time, (budget, self.clock)
        assert self.clock.remaining() >= budget
        time.sleep(min(budget, 0.05))
        self.log.info(
            "clock move_time=%.3f bank=%.3f budget=%.3f",
            self.clock.move_time,
            self.clock.bank,
            budget,
        )
        return state.legal_moves()[-1]
