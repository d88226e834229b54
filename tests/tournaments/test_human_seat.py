"""`azul-arena play`: a person plays a whole game in a pseudo-terminal, through the referee."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.engine import verify

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"your move \[1-(\d+)\] or notation(?: \(\d+ s\))?: "


def spawn_play(tmp_path: Path, *args: str) -> Any:
    """`azul-arena play random ARGS --replay tmp_path/game.json` in a pseudo-terminal."""
    pexpect = pytest.importorskip(
        "pexpect", reason="pexpect is not installed: pip install -e '.[dev]'"
    )
    env = dict(os.environ, COLUMNS="120", LINES="50", TERM="xterm-256color")
    return pexpect.spawn(
        sys.executable,
        ["-m", "tournaments.cli", "play", "random", *args, "--replay", str(tmp_path / "game.json")],
        cwd=str(tmp_path),
        env=env,
        encoding="utf-8",
        timeout=60,
    )


def test_a_whole_game_typed_at_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn_play(tmp_path, "--seed", "3", "--seat", "1")
    import pexpect  # present: spawn_play skips the test otherwise

    try:
        child.expect(r"You are seat 1")
        child.expect(PROMPT)
        listed = re.sub(r"\x1b\[[0-9;]*m", "", child.before)  # the board and the move list
        # A bad answer is explained and asked again; a number past the list too.
        child.sendline("hello")
        child.expect(r"is not a move")
        child.expect(PROMPT)
        child.sendline("999")
        child.expect(r"999 is not a move number")
        child.expect(PROMPT)
        child.sendline("1B9")  # notation that is no move at all
        child.expect(r"is not a move")
        child.expect(PROMPT)
        # A move in notation (lower case is fine): the first of the numbered list.
        first = re.search(r"^\s*1 (\S{2,4})\s", listed, re.M)
        assert first, listed[-2000:]
        child.sendline(first.group(1).lower())
        child.expect(rf" {re.escape(first.group(1))}: takes ")
        child.expect(PROMPT)
        typed = 1
        while True:
            # The last legal move each time, by number (a different one from the first).
            child.sendline(child.match.group(1))
            typed += 1
            if child.expect([PROMPT, r"The game is saved"]) == 1:
                break
        child.expect(r"azul-arena replay view \S*game\.json")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    assert typed > 10
    saved = json.loads(record.read_text())
    assert saved["players"] == ["random", "you"]
    assert verify(saved).ok and verify(saved).complete
    ref = saved["referee"]
    assert ref["bots"][1]["name"] == "human" and not ref["faults"]
    assert sum(1 for i in range(len(ref["move_times_us"])) if i not in ref["substituted"]) > 0


def test_play_refuses_an_unknown_bot() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "tournaments.cli", "play", "nobody"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and "nobody" in done.stderr


def test_match_draws_the_board_after_every_move(tmp_path: Path) -> None:
    import subprocess

    record = tmp_path / "m.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments.cli",
            "match",
            "random",
            "greedy",
            "--board",
            "--seed",
            "4",
            "--replay",
            str(record),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    moves = [m for r in json.loads(record.read_text())["rounds"] for m in r["moves"]]
    out = done.stdout
    assert out.count(" takes ") == len(moves)
    assert out.count("floor ") >= 2 * len(moves)  # both boards, after every move
    assert f"{len(moves):4d}  greedy {moves[-1]}:" in out or f"random {moves[-1]}:" in out


def test_a_summer_pavilion_game_with_a_wild_order_typed_at_the_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn_play(tmp_path, "--seed", "5", "--ruleset", "pavilion", "--wild-order", "gopybr")
    import pexpect  # present: spawn_play skips the test otherwise

    try:
        child.expect(r"You are seat 0")
        while child.expect([PROMPT, r"The game is saved"]) == 0:
            child.sendline(child.match.group(1))  # the last legal move, by number
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    saved = json.loads(record.read_text())
    assert saved["ruleset"] == "pavilion" and saved["options"]["wild_order"] == "GOPYBR"
    assert verify(saved).ok and verify(saved).complete
    assert saved["referee"]["bots"][0]["termination"] == "ok" and not saved["referee"]["faults"]
