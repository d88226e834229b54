"""A bot that burns CPU in two threads all the time, its own turn or not: frozen between its
moves (the default), it gets none while the others think."""

import threading

import sdk


def burn():
    x = 0
    while True:
        x += 1


class BurnerBot(sdk.Bot):
    started = False

    def choose_move(self, state):
        if not self.started:
            self.started = True
            for _ in range(2):
                threading.Thread(target=burn, daemon=True).start()
        return state.legal_moves()[0]
