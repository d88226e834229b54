"""Spends its first AZUL_TEST_MOVES moves (default 1) as AZUL_TEST_SPEND says, then answers at once:
`sleep:S` sleeps S seconds; `burn:S` uses S seconds of CPU (its process's CPU time, measured by
itself); `pinned:S` does the same on CPU 0 only, where the test runs CPU hogs beside it."""

import os
import time

import sdk


class CpuUser(sdk.Bot):
    moves = 0

    def choose_move(self, state):
        self.moves += 1
        if self.moves <= int(os.environ.get("AZUL_TEST_MOVES", "1")):
            how, _, amount = os.environ["AZUL_TEST_SPEND"].partition(":")
            seconds = float(amount)
            if how == "sleep":
                time.sleep(seconds)
            else:
                if how == "pinned":
                    os.sched_setaffinity(0, {0})  # this thread, beside the test's hogs
                start = time.process_time()
                while time.process_time() - start < seconds:
                    pass
        return state.legal_moves()[0]
