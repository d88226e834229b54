"""A bot with a bug, chosen by AZUL_TEST_MISTAKE: `raise` (choose_move raises), `none` (returns
None), `index` (returns index -1), `greedy` (allocates 16 GiB) or `chatty` (writes a megabyte to
stdout every move)."""

import os
import sys

import sdk


class MistakenBot(sdk.Bot):
    def choose_move(self, state):
        mistake = os.environ.get("AZUL_TEST_MISTAKE", "raise")
        if mistake == "raise":
            raise KeyError("a bug in the bot")
        if mistake == "none":
            return None
        if mistake == "index":
            return -1
        if mistake == "greedy":
            return len(bytearray(16 << 30))  # over any memory limit it has
        sys.stdout.write("x" * (1 << 20))
        sys.stdout.flush()
        return state.legal_moves()[0]
