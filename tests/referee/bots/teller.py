"""A bot that writes who it is, its process and the game it is in to its log, at the game's start
and at each move; in a game whose id has `boom` in it, its process dies at its third move."""

from __future__ import annotations

import os
import secrets
import sys

import sdk

PROCESS = secrets.token_hex(6)  # this process's (pids repeat in sandboxes' namespaces)


class Teller(sdk.Bot):
    name = "teller"

    def on_game_start(self, info: sdk.GameInfo) -> None:
        self.who = f"i am {info.names[info.seat]} process {PROCESS}"
        self.game, self.moves = info.game_id, 0
        print(f"{self.who} game {self.game} starts", file=sys.stderr, flush=True)

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        self.moves += 1
        print(f"{self.who} game {self.game} move {self.moves}", file=sys.stderr, flush=True)
        if "boom" in self.game and self.moves == 3:
            print(f"{self.who} game {self.game} dies", file=sys.stderr, flush=True)
            os._exit(3)
        return state.legal_moves()[0]


if __name__ == "__main__":
    sdk.run(Teller)
