"""A bot that keeps starting children, some leaving its process group and spinning, some forked
as it is being stopped (forking.py): between its moves, all of them must be stopped with it."""

import forking

import sdk


class ForkerBot(sdk.Bot):
    started = False

    def choose_move(self, state):
        if not self.started:
            self.started = True
            forking.start()
        return state.legal_moves()[0]
