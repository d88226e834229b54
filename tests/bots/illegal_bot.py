"""A test bot that breaks the rules: from its third decision on it answers an illegal move."""

import sdk


class IllegalBot(sdk.Bot):
    name = "illegal"

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        self.asked += 1
        legal = state.legal_moves()
        if self.asked < 3:
            return legal[0]
        probe = state.copy()
        for move in legal:  # a move legal now is illegal after itself was played, usually
            probe.push(move)
            break
        for move in probe.legal_moves():
            if move not in legal:
                return move
        return legal[0]


if __name__ == "__main__":
    sdk.run(IllegalBot)
