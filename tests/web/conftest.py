"""Fixtures of the page tests: one real browser per module, real games played by real bots."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import chromium_browser

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "tournaments.cli"]


def run_cli(
    *args: str, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, cwd=cwd or ROOT, timeout=timeout
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium_browser()


@pytest.fixture(scope="session")
def fault_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real match through the referee in which one bot plays illegal moves (strikes,
    substituted moves, a forfeit) and greedy plays well (measured move times)."""
    folder = tmp_path_factory.mktemp("match")
    path = folder / "faulty.json"
    done = run_cli(
        "match",
        str(ROOT / "tests/bots/illegal_bot.py"),
        "greedy",
        "--seed",
        "11",
        "-t",
        "2",
        "--replay",
        str(path),
        "--json",
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(path.read_text())
    assert record["referee"]["substituted"] and record["referee"]["faults"]
    return path


@pytest.fixture(scope="session")
def big_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 4-player game that lasts the 50 rounds of the cap: everyone floors every tile."""
    from tournaments.benchmarks.viewer import capped_game

    path = tmp_path_factory.mktemp("big") / "big.json"
    path.write_text(json.dumps(capped_game(4)))
    return path


@pytest.fixture(scope="session")
def pavilion_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-player Summer Pavilion game whose seats place a tile whenever they can (random among
    the placements, else random): stars that fill up, passes, bonus tiles."""
    import random

    from referee.engine import new_game

    game = new_game("pavilion", 3, seed=4)
    rng = random.Random(4)
    while not game.is_over():
        moves = game.legal_moves()
        places = [m for m in moves if "-" in str(m)]
        game.push(rng.choice(places or moves))
    path = tmp_path_factory.mktemp("pavilion") / "pavilion.json"
    path.write_text(json.dumps(game.record(["ann", "bob", "cyd"])))
    return path
