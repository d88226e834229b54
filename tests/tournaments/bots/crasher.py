"""CrashBot: the process dies on its first move request of every game."""

from __future__ import annotations

import os

import sdk


class CrashBot(sdk.Bot):
    name = "crasher"

    def choose_move(self, state):  # type: ignore[no-untyped-def]
        os._exit(3)  # no cleanup, no goodbye: as abrupt as a segfault


if __name__ == "__main__":
    sdk.run(CrashBot)
