"""Starts a child process (it would be an orphan if the referee did not kill the whole group),
writes the child's pid and its own to AZUL_TEST_PIDFILE, then plays slowly."""

import os
import subprocess
import time

import sdk


class ForkingBot(sdk.Bot):
    def __init__(self):
        super().__init__()
        child = subprocess.Popen(["sleep", "300"])
        with open(os.environ["AZUL_TEST_PIDFILE"], "w") as f:
            f.write(f"{os.getpid()} {child.pid}\n")

    def choose_move(self, state):
        time.sleep(0.05)
        return state.legal_moves()[0]
