"""Plays two moves, then its process exits mid-game."""

import os

import sdk


class ExitingBot(sdk.Bot):
    moves = 0

    def choose_move(self, state):
        self.moves += 1
        if self.moves > 2:
            os._exit(3)
        return state.legal_moves()[0]
