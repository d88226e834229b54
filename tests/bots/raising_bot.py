"""A bot whose choose_move raises every time: the referee plays every one of its moves."""

import sdk


class RaisingBot(sdk.Bot):
    name = "raiser"

    def choose_move(self, state):
        raise RuntimeError("this bot raises on every move")


if __name__ == "__main__":
    sdk.run(RaisingBot)
