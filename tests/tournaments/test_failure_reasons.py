"""A failing bot says why, in the same words everywhere: the exception's last line and the line
of the bot's own code it came from (real bot processes through the referee, the real CLI)."""

from __future__ import annotations

from pathlib import Path

from tests.tournaments.test_end_to_end import cli
from tournaments.domain.compliance import run_check

CRASHES_IN_A_HELPER = """import sdk


def helper(x):
    raise ValueError("oops " + str(x))


class Crashes(sdk.Bot):
    name = "crashes"

    def choose_move(self, state):
        return helper(3)


if __name__ == "__main__":
    sdk.run(Crashes)
"""

SYNTAX_ERROR = """import sdk


class Broken(sdk.Bot):
    def choose_move(self, state)
        return 0


if __name__ == "__main__":
    sdk.run(Broken)
"""

CRASH_WORDS = "ValueError: oops 3 (bot.py line 5, in helper)"
SYNTAX_WORDS = "SyntaxError: expected ':' (bot.py line 5)"


def bot(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "bot.py"
    path.write_text(source)
    return path


def test_a_crash_in_choose_move_names_the_exception_and_the_bots_line(tmp_path: Path) -> None:
    report = run_check(str(bot(tmp_path, CRASHES_IN_A_HELPER)), time_per_move=0.5)
    # It crashes on every move: none of its own, and the first failing check says why.
    failed = next(c for c in report.checks if not c.passed)
    assert failed.name == "only legal moves"
    assert failed.detail.startswith("no move of its own (") and CRASH_WORDS in failed.detail
    survives = next(c for c in report.checks if c.name == "survives 2-player games")
    assert not survives.passed and survives.detail == f"crash: {CRASH_WORDS}"


def test_a_syntax_error_names_its_line_before_hello(tmp_path: Path) -> None:
    report = run_check(str(bot(tmp_path, SYNTAX_ERROR)), time_per_move=0.5)
    failed = next(c for c in report.checks if not c.passed)
    assert failed.name == "launch and handshake"
    assert SYNTAX_WORDS in failed.detail


def test_bot_check_ends_with_the_first_failures_reason(tmp_path: Path) -> None:
    path = bot(tmp_path, CRASHES_IN_A_HELPER)
    proc = cli("bot", "check", str(path), "-t", "0.5", cwd=tmp_path, check=False)
    assert proc.returncode == 1
    last = " ".join(proc.stdout.strip().splitlines()[-2:])
    assert "FAIL only legal moves: no move of its own" in last, proc.stdout
    assert "crash: ValueError: oops 3" in last, proc.stdout


def test_match_says_the_crash_with_its_line(tmp_path: Path) -> None:
    path = bot(tmp_path, CRASHES_IN_A_HELPER)
    proc = cli("match", str(path), "random", "-t", "0.2", "--seed", "3", cwd=tmp_path)
    assert f"crash (strike 1) {CRASH_WORDS}" in " ".join(proc.stdout.split())


def test_match_stops_a_seat_that_cannot_start_before_the_game(tmp_path: Path) -> None:
    path = bot(tmp_path, SYNTAX_ERROR)
    proc = cli("match", str(path), "random", "-t", "0.2", cwd=tmp_path, check=False)
    assert proc.returncode == 1, proc.stdout
    said = " ".join(proc.stderr.split())
    assert "cannot start" in said and SYNTAX_WORDS in said, said
    assert "round 1" not in proc.stdout and "game over" not in proc.stdout, "no game was played"
    assert not (tmp_path / "arena-data" / "replays").exists()
