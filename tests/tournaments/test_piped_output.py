"""Output piped to a file or another program: no 80-column wrapping, no cut paths."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_piped_output_keeps_paths_and_table_cells_whole(tmp_path: Path) -> None:
    deep = tmp_path / "a-rather-long-folder-name-for-the-records" / "and-one-more-level-below-it"
    record = deep / "game-record.json"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "match",
            "random",
            "greedy",
            "--seed",
            "1",
            "--replay",
            str(record),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(str(record)) > 80 and any(str(record) in line for line in lines), done.stdout
    rows = [line for line in lines if line.startswith("│ ")]  # the result table's rows
    assert len(rows) == 2 and not any("…" in row for row in rows), done.stdout
