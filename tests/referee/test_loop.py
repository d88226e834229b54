"""The referee's event loop: uvloop where installed (a dependency on Linux), asyncio otherwise."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Awaitable, Callable

import pytest

from referee.protocol.loop import loop_name, run_loop, spawn


async def running_loop() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_referee_runs_on_uvloop_here() -> None:
    assert loop_name() == "uvloop"
    assert run_loop(running_loop()).startswith("uvloop")


def test_without_uvloop_it_runs_on_asyncios_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    assert loop_name() == "asyncio"
    assert run_loop(running_loop()).startswith("asyncio")


async def start_many(
    count: int, start: Callable[..., Awaitable[asyncio.subprocess.Process]]
) -> int:
    processes = [await start("true") for _ in range(count)]
    return sum([await process.wait() == 0 for process in processes])


def spawn_in_threads(
    start: Callable[..., Awaitable[asyncio.subprocess.Process]], threads: int, each: int
) -> tuple[int, list[BaseException]]:
    """Start `each` processes from each of `threads` threads, each thread on its own loop (as
    the ladder worker's validations do beside its games)."""
    started: list[int] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            started.append(run_loop(start_many(each, start)))
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=one) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(started), errors


def test_loops_in_several_threads_can_start_processes_at_once() -> None:
    # uvloop alone refuses ("Racing with another loop to spawn a process", uvloop#508) in
    # about one run of this size in three; `spawn` waits its turn instead.
    started, errors = spawn_in_threads(spawn, threads=4, each=40)
    assert errors == []
    assert started == 160
