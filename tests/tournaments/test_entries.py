"""Entry parsing from the command line and from a TOML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.entries import Entry, EntryError, load_entries_toml, parse_entries


def test_command_line_entries() -> None:
    got = parse_entries(["random", "me=bots/mine.py:Clever", "./x/bot.py", "java -jar b.jar"])
    assert got == [
        Entry("random", "random"),
        Entry("me", "bots/mine.py:Clever"),
        Entry("bot", "./x/bot.py"),
        Entry("java", "java -jar b.jar"),
    ]


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
        '[[entry]]\ncommand = "java -jar bob.jar"\n'
    )
    got = load_entries_toml(f)
    assert got == [
        Entry("alice", str(tmp_path / "students" / "alice.py")),
        Entry("base", "random"),
        Entry("java", "java -jar bob.jar"),
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ('[[entry]]\nname = "a"\nbuiltin = "random"\n[[entry]]\nname = "a"\nbuiltin = "x"\n',
         "repeated: a"),
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
