"""What `azul-arena match` shows and writes, as a newcomer meets it: one board layout from the
first table to the last, the start marker and the game's length in words, and every file it
writes under ./arena-data/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

MATCH = [sys.executable, "-m", "tournaments.cli", "match", "random", "greedy", "--seed", "3"]
MATCH += ["-t", "0.2", "--isolation", "none"]


def test_a_match_draws_one_layout_says_what_it_shows_and_writes_in_one_place(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run(
        MATCH,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # The final table is drawn as the tables during the game are (the family's view), not in
    # the engine's own text layout.
    assert "factories  1:" not in out and "bag 13 tiles" not in out
    heads = [line for line in out.splitlines() if line.startswith("azul  round ")]
    assert heads[0] == "azul  round 1  random to move" and heads[-1].endswith("game over")
    # The start marker is named, an empty centre says so.
    assert "centre:  1  start marker, no tiles yet" in out
    assert "centre: empty" in out
    # The game's length is labelled.
    title = next(line.strip() for line in out.splitlines() if line.strip().startswith("match "))
    assert re.search(r"seed 3, wall clock; \d+ rounds, \d+ moves in \d+\.\d\d s$", title), title
    # Everything it wrote is under ./arena-data: the record and the bots' logs.
    assert [p.name for p in tmp_path.iterdir()] == ["arena-data"]
    records = list((tmp_path / "arena-data" / "replays").glob("*.json"))
    logs = sorted(p.name.split("-")[0] for p in (tmp_path / "arena-data" / "logs").glob("*.log"))
    assert len(records) == 1 and f"record: {records[0].relative_to(tmp_path)}" in out
    assert logs == ["greedy", "random"]
