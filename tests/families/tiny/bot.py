"""A random azul-tiny bot: an SDK bot whose process registers the family from this folder
(the SDK puts a bot's folder on sys.path)."""

from __future__ import annotations

import random

from family import TINY  # type: ignore[import-not-found]

import sdk
from referee.engine import register

register(TINY)


class TinyBot(sdk.Bot):
    name = "tiny-random"
    rulesets = ("azul-tiny",)

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(1)

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        return self.rng.choice(list(state.legal_moves()))


if __name__ == "__main__":
    sdk.run(TinyBot)
