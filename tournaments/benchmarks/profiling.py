"""A cProfile of the benchmark's own process (referee, runner, store) over the games measured,
summed up per move: where the referee's CPU goes, kept as a benchmark output (`bench tournament
--profile`).

Only the thread that starts it is profiled: the event loop's, where the referee, the runner and
the store run (gRPC's poller thread is C and does not show). Its clock is that thread's CPU time,
not the wall clock: on a busy machine the referee is often preempted in the middle of a call (a
write that wakes a bot on the same core, for one), and a wall clock would charge that call for
the time others ran. A function's own time includes the C code it calls that the profiler does
not see (gRPC's write, the protobuf library). The profiler slows every Python call (reading a
thread's CPU clock is a system call), so a profiled run's games/s say little: read its shares.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path
from typing import Any

# Where a function's file is shown from: the checkout, then the installed packages.
_ROOTS = sorted(
    {str(Path(__file__).resolve().parents[2]), *(p for p in sys.path if p.endswith("-packages"))},
    key=len,
    reverse=True,
)


def _where(file: str, line: int, name: str) -> str:
    """A function as `path:line(name)`, its path from the checkout or site-packages."""
    for root in _ROOTS:
        if file.startswith(root + "/"):
            file = file[len(root) + 1 :]
            break
    return f"{file}:{line}({name})" if line else f"{file}({name})" if file != "~" else name


class Profile:
    """cProfile started and stopped around the games measured (`start`, `stop`: each at most
    once has effect), summed up by `summary`."""

    def __init__(self) -> None:
        self._profiler = cProfile.Profile(time.thread_time)
        self._running = False
        self._stopped = False

    def start(self) -> None:
        if not self._running and not self._stopped:
            self._running = True
            self._profiler.enable()

    def stop(self) -> None:
        if self._running:
            self._profiler.disable()
            self._running, self._stopped = False, True

    def summary(self, moves: int, top: int = 25) -> dict[str, Any]:
        """The `top` functions by their own time and by their cumulative time (with what they
        call), each in microseconds per move of the `moves` measured, with its calls per move
        and its share of all the own time profiled."""
        self.stop()
        stats = pstats.Stats(self._profiler).stats  # type: ignore[attr-defined]
        total = sum(tt for _, _, tt, _, _ in stats.values())
        per = 1e6 / moves if moves else 0.0

        def rows(key: int) -> list[dict[str, Any]]:
            chosen = sorted(stats.items(), key=lambda item: item[1][key], reverse=True)[:top]
            return [
                {
                    "function": _where(*where),
                    "calls_per_move": nc / moves if moves else 0.0,
                    "own_us_per_move": tt * per,
                    "cumulative_us_per_move": ct * per,
                    "own_share": tt / total if total else 0.0,
                }
                for where, (_, nc, tt, ct, _) in chosen
            ]

        return {
            "moves": moves,
            "profiled_us_per_move": total * per,
            "top_own": rows(2),
            "top_cumulative": rows(3),
        }
