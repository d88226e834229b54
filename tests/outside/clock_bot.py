"""A stand-in outside engine for `bench outside`'s tests: plays the first legal move, and
raises (a fault the referee counts) when the move's time limit is not the one it was told to
expect (`--expect SECONDS`): a bench that gave both seats one clock would show faults. A game's
first move is not checked: its limit includes the warm-up allowance. `--startup-delay SECONDS`:
it waits that long before it says Hello, as an engine that compiles first would."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the SDK, run by path

import sdk  # after the path above


class ClockBot(sdk.Bot):
    """The first legal move, once the clock is the expected one."""

    name = "clock"

    def __init__(self, expect: float) -> None:
        super().__init__()
        self.expect = expect
        self.first = True

    def on_game_start(self, info: sdk.GameInfo) -> None:
        self.first = True

    def choose_move(self, state: Any) -> Any:
        first, self.first = self.first, False
        if not first and abs(self.clock.move_time - self.expect) > 1e-6:
            raise RuntimeError(f"move time {self.clock.move_time}, expected {self.expect}")
        return state.legal_moves()[0]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--expect", type=float, required=True)
    parser.add_argument("--startup-delay", type=float, default=0.0)
    args, rest = parser.parse_known_args()
    time.sleep(args.startup_delay)
    sdk.run(ClockBot(args.expect), rest)
