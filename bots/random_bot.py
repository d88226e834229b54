"""RandomBot: plays a uniformly random legal move. Written only against the SDK."""

from __future__ import annotations

import os
import random

import sdk


class RandomBot(sdk.Bot):
    """A uniformly random legal move, drawn from `self.rng` (the referee seeds it at each game
    start; AZUL_ARENA_BOT_SEED or `seed` seed it until then)."""

    name = "random"
    version = "1.0"
    rulesets = sdk.EVERY_RULESET

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        env_seed = os.environ.get("AZUL_ARENA_BOT_SEED")
        self.rng = random.Random(
            seed if seed is not None else (int(env_seed) if env_seed else None)
        )

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        return self.rng.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(RandomBot)
