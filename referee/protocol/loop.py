"""The event loop the referee and the SDK run on: uvloop where it is installed, else asyncio's own.

The referee's process does little per move besides gRPC's reads and writes and the event loop's
own bookkeeping between them; uvloop (libuv) makes the latter cheaper: about 50 us less CPU per
move in the referee, about a tenth more games per second in `bench tournament` (measured in A/B
runs, docs/performance.md).
Everything the referee does is plain asyncio, so it runs the same on either loop, with one
exception: `spawn`, for starting processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from types import ModuleType
from typing import Any, TypeVar

T = TypeVar("T")

# uvloop refuses to start a process while a loop in another thread is starting one (its fork
# handlers are global), raising this at once and leaving nothing behind; it is still so in 0.23
# (MagicStack/uvloop#508). The ladder worker meets it: validation runs on its own loop in a
# thread while the worker's loop starts the ladder's bots.
_RACING = "Racing with another loop to spawn a process"
_RACE_RETRIES = 50


def _uvloop() -> ModuleType | None:
    try:
        import uvloop
    except ImportError:  # not on every platform (Windows): asyncio's loop is fine, only slower
        return None
    return uvloop


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the fastest loop available."""
    uvloop = _uvloop()
    return asyncio.run(main) if uvloop is None else uvloop.run(main)


def new_loop() -> asyncio.AbstractEventLoop:
    """A new event loop of the kind `run_loop` uses (for code that drives a loop by hand)."""
    uvloop = _uvloop()
    return asyncio.new_event_loop() if uvloop is None else uvloop.new_event_loop()


def loop_name() -> str:
    """Which loop `run_loop` uses, for benchmark reports."""
    return "asyncio" if _uvloop() is None else "uvloop"


async def spawn(*argv: str, **options: Any) -> asyncio.subprocess.Process:
    """`asyncio.create_subprocess_exec(*argv, **options)`, which waits its turn (a millisecond or
    a few) where uvloop would refuse because another thread's loop is starting a process too."""
    for attempt in range(_RACE_RETRIES - 1):
        try:
            return await asyncio.create_subprocess_exec(*argv, **options)
        except RuntimeError as exc:
            if _RACING not in str(exc):
                raise
            await asyncio.sleep(0.001 * (1 + attempt % 8))
    return await asyncio.create_subprocess_exec(*argv, **options)  # the last try raises
