"""The referee's event loop: uvloop where installed (a dependency on Linux), asyncio otherwise."""

from __future__ import annotations

import asyncio
import sys

import pytest

from referee.protocol.loop import loop_name, run_loop


async def running_loop() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_referee_runs_on_uvloop_here() -> None:
    assert loop_name() == "uvloop"
    assert run_loop(running_loop()).startswith("uvloop")


def test_without_uvloop_it_runs_on_asyncios_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    assert loop_name() == "asyncio"
    assert run_loop(running_loop()).startswith("asyncio")
