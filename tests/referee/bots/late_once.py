"""Answers its first move late (AZUL_TEST_SLEEP seconds), then at once: its late reply reaches
the referee while the next request is open."""

import os
import time

import sdk


class LateOnceBot(sdk.Bot):
    late = True

    def choose_move(self, state):
        if self.late:
            self.late = False
            time.sleep(float(os.environ.get("AZUL_TEST_SLEEP", "0.5")))
        return state.legal_moves()[0]
