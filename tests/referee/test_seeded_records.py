"""Seeded matches give the same records, byte for byte, as a reference stored before the
referee's and the SDK's move path was last reworked: the deals, every move (the bots draw from
their seeds), the faults, strikes and substituted moves (the referee draws those from the deal's
seed), the scores and ranks. Only what a clock measures (times, CPU) and where the checkout lies
are left out, as they differ between any two runs.

The reference is tests/referee/data/seeded_records.json. It is a fixed point: regenerate it
(`python -m tests.referee.test_seeded_records --write`) only for a change that is meant to alter
what is played, and say so where the change is reviewed.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import referee
from referee import FaultPolicy, MatchConfig

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).parent / "bots"
REFERENCE = Path(__file__).parent / "data" / "seeded_records.json"

# (match id, seats, ruleset, seed). The faulty entries fault every move, each its own way (three
# strikes, then forfeit: the rest of their moves are the referee's): `raises` in choose_move (a
# crash), `none` returns None (malformed), `illegal` answers an index past the legal moves.
MATCHES: list[tuple[str, list[str], str, int]] = [
    ("m-azul-1", ["random", "greedy"], "azul", 1),
    ("m-azul-2", ["greedy", "random"], "azul", 2),
    ("m-azul-3", ["mcts:iterations=20", "search:depth=1"], "azul", 3),
    ("m-azul-4", ["random", "greedy", "raises"], "azul", 4),
    ("m-azul-5", ["random", "random", "greedy", "random"], "azul", 5),
    ("m-gray-6", ["greedy", "random"], "azul-gray", 6),
    ("m-pavilion-7", ["random", "greedy"], "pavilion", 7),
    ("m-pavilion-8", ["greedy", "random", "random"], "pavilion", 8),
    ("m-mini-9", ["none", "random"], "azul-mini", 9),
    ("m-azul-10", ["illegal", "greedy"], "azul", 10),
]

# Measured, not played: they differ between any two runs of the same seeds.
MEASURED_REFEREE = ("duration",)
MEASURED_BOT = ("move_time_total", "cpu_time")
MEASURED_SEAT = ("move_time_total", "cpu_time", "log_path")


def _normalised(result: referee.MatchResult) -> dict[str, Any]:
    record = json.loads(json.dumps(result.record))
    facts = record["referee"]
    for key in MEASURED_REFEREE:
        facts[key] = None
    facts["move_times_us"] = [0] * len(facts["move_times_us"])
    for bot in facts["bots"]:
        for key in MEASURED_BOT:
            bot[key] = None
    seats = []
    for seat in result.seats:
        row = {k: v for k, v in asdict(seat).items() if k not in MEASURED_SEAT}
        seats.append(row)
    return {"record": record, "seats": seats, "reason": result.reason}


async def _play_all() -> list[dict[str, Any]]:
    entries = {
        "random": "random",
        "greedy": "greedy",
        "mcts:iterations=20": "mcts:iterations=20",
        "search:depth=1": "search:depth=1",
        "raises": str(BOTS / "mistaken.py"),
        "none": str(BOTS / "mistaken.py"),
        "illegal": f"{sys.executable} {BOTS / 'rawbot.py'} illegal_index",
    }
    out = []
    async with referee.Arena(
        entries,
        entry_env={
            "raises": {"AZUL_TEST_MISTAKE": "raise"},
            "none": {"AZUL_TEST_MISTAKE": "none"},
        },
    ) as arena:
        for match_id, seats, ruleset, seed in MATCHES:
            config = MatchConfig(
                ruleset=ruleset, seed=seed, time_per_move=10.0, fault_policy=FaultPolicy.RANDOM
            )
            result = await arena.play(seats, config, match_id=match_id)
            out.append(_normalised(result))
    return out


def records_text() -> str:
    """The normalised records of `MATCHES`, as the reference file holds them."""
    text = json.dumps(asyncio.run(_play_all()), indent=1, sort_keys=True) + "\n"
    return text.replace(str(ROOT), "<checkout>")


def test_seeded_matches_give_the_reference_records_byte_for_byte() -> None:
    expected = REFERENCE.read_text()
    got = records_text()
    if got != expected:
        pairs = enumerate(zip(got, expected, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(got), len(expected)))
        raise AssertionError(
            f"the records differ from {REFERENCE.name} at character {at}: "
            f"got ...{got[max(0, at - 200) : at + 200]!r}..., "
            f"expected ...{expected[max(0, at - 200) : at + 200]!r}..."
        )


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.referee.test_seeded_records --write")
    REFERENCE.write_text(records_text())
    print(f"wrote {REFERENCE}")
