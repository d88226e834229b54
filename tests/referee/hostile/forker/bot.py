"""A bot that keeps starting children that leave its process group (a new session each) and
spin for a while: between its moves, all of them must be stopped with it, those it starts
while it is being stopped included."""

import os
import threading
import time

import sdk

LIVE = 12  # children alive at once (the process cap counts them)


def spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def keep_forking():
    live = set()
    while True:
        for pid in list(live):
            if os.waitpid(pid, os.WNOHANG)[0]:
                live.discard(pid)
        if len(live) < LIVE:
            pid = os.fork()
            if pid == 0:
                os.setsid()
                spin(0.3)
                os._exit(0)
            live.add(pid)
        time.sleep(0.002)


class ForkerBot(sdk.Bot):
    started = False

    def choose_move(self, state):
        if not self.started:
            self.started = True
            threading.Thread(target=keep_forking, daemon=True).start()
        return state.legal_moves()[0]
