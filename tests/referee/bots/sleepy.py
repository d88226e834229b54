"""Sleeps past its limit on every move (AZUL_TEST_SLEEP seconds, default 1)."""

import os
import time

import sdk


class SleepyBot(sdk.Bot):
    def choose_move(self, state):
        time.sleep(float(os.environ.get("AZUL_TEST_SLEEP", "1")))
        return state.legal_moves()[0]
