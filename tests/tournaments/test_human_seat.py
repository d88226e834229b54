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
        cells = _grid_cells(_screen(child.before))  # the board and the move grid
        # A bad answer is explained and asked again; a number past the list too.
        child.sendline("hello")
        child.expect(r"is not a move")
        child.expect(PROMPT)
        child.sendline("999")
        child.expect(r"999 is not a move number")
        child.expect(PROMPT)
        child.sendline("1B9")  # notation that is no move at all: the wrong part is named
        child.expect(r"is not a move")
        child.expect(re.compile(r"destination\s+'9'\s+must\s+be"))
        child.expect(PROMPT)
        # A move in notation (lower case is fine): the first of the numbered list.
        (row, column), _ = next((key, c) for key, c in cells.items() if re.match(r"1(?!\d)", c))
        taken = re.match(r"\d+ (\w+) from (?:factory (\d)|the (c)entre)", row)
        assert taken, row
        colour = {"blue": "B", "yellow": "Y", "red": "R", "black": "K", "white": "W"}
        first = (taken[2] or "C") + colour[taken[1]] + ("F" if column == "floor" else column[-1])
        child.sendline(first.lower())
        child.expect(rf" {first}: takes ")
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
            screen = _screen(child.before)  # takes, placements and passes: one screen
            assert len(screen) < 50 and max(map(len, screen)) <= 120, "\n".join(screen)
            child.sendline(child.match.group(1))  # the last legal move, by number
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    saved = json.loads(record.read_text())
    assert saved["ruleset"] == "pavilion" and saved["options"]["wild_order"] == "GOPYBR"
    assert verify(saved).ok and verify(saved).complete
    assert saved["referee"]["bots"][0]["termination"] == "ok" and not saved["referee"]["faults"]


def _screen(before: str) -> list[str]:
    """What a prompt shows from the board's first line on, without colours."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", before)
    head = list(re.finditer(r"^\S+  round \d", text, re.M))
    assert head, text[-2000:]
    return text[head[-1].start() :].rstrip("\r\n").splitlines()


def _grid_cells(screen: list[str]) -> dict[tuple[str, str], str]:
    """The move grid under the board: {(row, column): cell}, columns right-aligned."""
    at = next(i for i, line in enumerate(screen) if line.startswith("your moves"))
    header = screen[at + 1]
    columns = [(m.group(0), m.end()) for m in re.finditer(r"\S+(?: \d)?", header)]
    cells = {}
    for line in screen[at + 3 :]:
        if not re.search(r"\S  +\S", line):
            break
        label = re.split(r"\s{2,}", line.strip())[0]
        for name, end in columns:
            cell = line[:end].rsplit(" ", 1)[-1]
            if cell != "·":
                cells[label, name] = cell
    return cells


def test_every_move_and_the_board_fit_one_120x50_screen(tmp_path: Path) -> None:
    """At every turn of a whole game the board and all the legal moves fit a 120x50 terminal
    (the moves as a grid: tiles taken by the line they go to), and the number in a cell is the
    move of its row and column."""
    child = spawn_play(tmp_path, "--seed", "3")
    import pexpect  # present: spawn_play skips the test otherwise

    turns = 0
    try:
        child.expect(r"You are seat 0")
        while child.expect([PROMPT, r"The game is saved"]) == 0:
            screen, legal = _screen(child.before), int(child.match.group(1))
            assert len(screen) < 50 and max(map(len, screen)) <= 120, "\n".join(screen)
            cells = _grid_cells(screen)
            numbers = sorted(int(re.match(r"\d+", c)[0]) for c in cells.values())
            assert numbers == list(range(1, legal + 1)), "\n".join(screen)
            (row, column), cell = next(iter(cells.items()))
            child.sendline(re.match(r"\d+", cell)[0])
            child.expect(r" (\w\w\w): takes ([^\r\n]+)")
            move, words = child.match.group(1), child.match.group(2)
            to = "the floor" if column == "floor" else column
            assert words.startswith(f"{row} to {to}"), (move, words, row, column)
            turns += 1
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    assert turns > 10
