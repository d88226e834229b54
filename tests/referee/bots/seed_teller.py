"""A bot that writes what it learns at each game start (game id, seat, seed) to its log and plays
a move drawn from `self.rng`: the same seed, the same moves."""

from __future__ import annotations

import sdk


class SeedTeller(sdk.Bot):
    name = "seed-teller"

    def on_game_start(self, info: sdk.GameInfo) -> None:
        self.log.warning("game %s seat %d seed %d", info.game_id, info.seat, info.seed)

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        return self.rng.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(SeedTeller)
