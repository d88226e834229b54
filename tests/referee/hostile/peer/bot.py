"""A peer whose source holds a marker (PEER-SOURCE) another entry must not be able to read."""

import sdk


class PeerBot(sdk.Bot):
    def choose_move(self, state):
        return state.legal_moves()[-1]
