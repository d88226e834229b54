"""Thinks for AZUL_TEST_SLEEP seconds per move, within its limit, and for AZUL_TEST_HOOK_SLEEP
seconds when a game ends (the SDK answers pings meanwhile)."""

import os
import time

import sdk


class ThinkingBot(sdk.Bot):
    def choose_move(self, state):
        time.sleep(float(os.environ.get("AZUL_TEST_SLEEP", "1")))
        return state.legal_moves()[0]

    def on_game_over(self, result):
        time.sleep(float(os.environ.get("AZUL_TEST_HOOK_SLEEP", "0")))
