"""Entry parsing from the command line and from a TOML file."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tournaments.domain.entries import (
    Entry,
    EntryError,
    check_entries,
    load_entries_toml,
    parse_entries,
)


def test_command_line_entries() -> None:
    got = parse_entries(["random", "me=bots/mine.py:Clever", "./x/bot.py", "java -jar b.jar"])
    assert got == [
        Entry("random", "random"),
        Entry("me", "bots/mine.py:Clever"),
        Entry("x", "./x/bot.py"),
        Entry("java", "java -jar b.jar"),
    ]


def test_a_bot_py_is_named_after_its_folder() -> None:
    """Every student's file is bot.py: alice/bot.py is "alice", not a second "bot"."""
    got = parse_entries(["alice/bot.py", "bob/bot.py:Greedy", "carol/main.py", "dave.py"])
    assert [e.name for e in got] == ["alice", "bob.Greedy", "carol", "dave"]


def test_duplicate_names_are_a_clear_error() -> None:
    with pytest.raises(EntryError, match="unique; repeated: random"):
        parse_entries(["random", "random"])
    assert len(parse_entries(["a=random", "b=random"])) == 2


def test_toml_entries(tmp_path: Path) -> None:
    (tmp_path / "students").mkdir()
    (tmp_path / "students" / "alice.py").write_text("# bot\n")
    f = tmp_path / "entries.toml"
    f.write_text(
        '[[entry]]\nname = "alice"\nfile = "students/alice.py"\n'
        '[[entry]]\nname = "base"\nbuiltin = "random"\n'
        '[[entry]]\ncommand = "sh bob.sh"\n'  # a command's program must exist (sh does)
    )
    got = load_entries_toml(f)
    assert got == [
        Entry("alice", str(tmp_path / "students" / "alice.py")),
        Entry("base", "random"),
        Entry("sh", "sh bob.sh"),
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        (
            '[[entry]]\nname = "a"\nbuiltin = "random"\n'
            '[[entry]]\nname = "a"\nbuiltin = "greedy"\n',
            "repeated: a",
        ),
        (
            '[[entry]]\nname = "a"\nbuiltin = "grredy"\n',
            "entry 1: unknown built-in bot 'grredy'; the built-ins are .*random",
        ),
        (
            '[[entry]]\nname = "a"\ncommand = "no-such-program-xyz --fast"\n',
            "entry 1: program 'no-such-program-xyz' .* neither on PATH nor an existing file",
        ),
        ('[[entry]]\nname = "a"\n', "exactly one of"),
        ('[[entry]]\nname = "a"\nfile = "nope.py"\n', "no such bot file"),
        ('[[entry]]\nname = "a b"\nbuiltin = "random"\n', "entry name"),
        ("x = [", "not valid TOML"),
        ("x = 1\n", "list of"),
    ],
)
def test_bad_toml_is_explained(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "e.toml"
    f.write_text(text)
    with pytest.raises(EntryError, match=message):
        load_entries_toml(f)


def test_binary_toml_is_explained(tmp_path: Path) -> None:
    f = tmp_path / "e.toml"
    f.write_bytes(b"\xff\xfe\x00\x81 binary")
    with pytest.raises(EntryError, match="not a text"):
        load_entries_toml(f)


def test_check_entries_names_the_bad_entry(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("# bot\n")
    good = [
        Entry("r", "random"),
        Entry("f", str(tmp_path / "ok.py")),
        Entry("s", "sh bot.sh"),
        Entry("p", f"{sys.executable} bot.py"),
    ]
    assert check_entries(good) == good
    for spec, message in [
        ("grredy", "entry 'x': unknown bot entry 'grredy'.*random"),
        ("gone.py", "entry 'x': bot file not found: gone.py"),
        ("nope-xyz --a", "entry 'x': program 'nope-xyz'"),
    ]:
        with pytest.raises(EntryError, match=message):
            check_entries([Entry("r", "random"), Entry("x", spec)])


def test_a_built_in_takes_its_parameters_after_a_colon(tmp_path: Path) -> None:
    from referee.launcher import python_target

    assert parse_entries(["mcts:iterations=400", "deep=search:depth=3"]) == [
        Entry("mcts-iterations400", "mcts:iterations=400"),
        Entry("deep", "search:depth=3"),
    ]
    assert python_target("mcts:iterations=400") == "bots.mcts_bot:MctsBot?iterations=400"
    assert python_target("mcts") == "bots.mcts_bot:MctsBot"
    # A switch may be 0: the expert on its linear fit, as docs/bots.md gives it.
    assert python_target("expert:net=0").endswith(":ExpertBot?net=0")
    path = tmp_path / "e.toml"
    path.write_text('[[entry]]\nname = "m"\nbuiltin = "mcts:iterations=50"\n')
    assert load_entries_toml(path) == [Entry("m", "mcts:iterations=50")]


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("mcts:depth=3", "has no parameter 'depth'; it takes iterations"),
        ("greedy:iterations=3", "it takes no parameters"),
        ("mcts:iterations=0", "iterations must be a positive whole number, not '0'"),
        ("search:depth=two", "depth must be a positive whole number, not 'two'"),
        ("expert:net=-1", "net must be a whole number (0 or more), not '-1'"),
    ],
)
def test_a_bad_parameter_is_explained(tmp_path: Path, spec: str, says: str) -> None:
    with pytest.raises(EntryError, match=re.escape(says)):
        check_entries([Entry("x", spec)])
    path = tmp_path / "e.toml"
    path.write_text(f'[[entry]]\nname = "m"\nbuiltin = "{spec}"\n')
    with pytest.raises(EntryError, match=re.escape(says)):
        load_entries_toml(path)
