"""Bot folders (referee/folders.py): a bot.toml says how a bot in any language builds and
starts; a match, `bot check`, an entry and a TOML entries file take the folder itself."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import Arena, MatchConfig, MatchResult
from referee.folders import BuildError, FolderError, build, read_folder
from referee.launcher import check_entry, entry_argv
from tournaments.cli import app
from tournaments.domain.entries import EntryError, load_entries_toml, parse_entry

FIRST_BOT = Path(__file__).resolve().parents[2] / "bots" / "first_bot.py"


def python_folder(where: Path, build_step: str = "cp first.py bot.py", **extra: str) -> Path:
    """A bot folder whose build step makes bot.py, run from the folder by a relative path."""
    where.mkdir(parents=True)
    shutil.copy(FIRST_BOT, where / "first.py")
    lines = [
        'name = "folder-bot"',
        f'run = "{sys.executable} bot.py"',
        f"build = '{build_step}'",
        *(f"{k} = {v}" for k, v in extra.items()),
    ]
    (where / "bot.toml").write_text("\n".join(lines) + "\n")
    return where


def play(seats: list[str], log_dir: Path) -> MatchResult:
    async def go() -> MatchResult:
        async with Arena(list(dict.fromkeys(seats)), log_dir=log_dir) as arena:
            return await arena.play(seats, MatchConfig(seed=3))

    return asyncio.run(go())


def test_a_folder_is_built_once_then_plays_from_its_own_directory(tmp_path: Path) -> None:
    folder = python_folder(tmp_path / "mine")
    entry = str(folder)
    check_entry(entry)  # its program is made by the build: not required to exist yet
    assert parse_entry(entry).name == "folder-bot"  # bot.toml's name
    result = play([entry, "random", entry], tmp_path / "logs")
    mine = [result.seats[0], result.seats[2]]
    assert all(s.termination == "ok" and s.bot_name == "first" for s in mine)
    build_logs = list((tmp_path / "logs").glob("*-build.log"))
    assert len(build_logs) == 1  # two seats, one build
    assert build_logs[0].read_text().startswith("$ cp first.py bot.py")


def test_a_failed_build_ends_the_seat_with_the_build_error(tmp_path: Path) -> None:
    # make's last line ("Error 2") says nothing: the compiler's error line is the one shown.
    folder = python_folder(
        tmp_path / "broken", "echo bot.cpp:3: error: oops >&2; echo make: Error 2; exit 3"
    )
    result = play([str(folder), "random"], tmp_path / "logs")
    assert result.seats[0].termination == "crash"
    assert result.seats[1].termination == "ok"
    detail = result.record["referee"]["faults"][0]["detail"]
    assert "failed with exit code 3: bot.cpp:3: error: oops" in detail
    assert result.seats[0].log_path.endswith("-build.log")

    checked = CliRunner().invoke(app, ["bot", "check", str(folder), "--json"])
    assert checked.exit_code == 1
    launch = json.loads(checked.output.strip().splitlines()[-1])["checks"][0]
    assert launch["name"] == "launch and handshake" and not launch["passed"]
    assert "bot.cpp:3: error: oops" in launch["detail"]  # not "said Hello as ''"


def test_a_build_over_its_time_limit_is_stopped(tmp_path: Path) -> None:
    folder = python_folder(tmp_path / "slow", "sleep 30", build_timeout="0.3")
    with pytest.raises(BuildError, match=r"took more than 0\.3 s"):
        asyncio.run(build(read_folder(folder), tmp_path / "build.log"))


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        (None, "without a bot.toml"),
        ('run = "node bot.js"\nbild = "make"\n', "unknown key(s) bild"),
        ('build = "make"\n', "run is missing"),
        ('run = "node bot.js\n', "not valid TOML"),
        ('run = "node bot.js"\nbuild_timeout = -1\n', "build_timeout must be a positive"),
    ],
)
def test_a_bad_folder_is_explained(tmp_path: Path, toml: str | None, says: str) -> None:
    if toml is not None:
        (tmp_path / "bot.toml").write_text(toml)
    with pytest.raises(FolderError, match=says.replace("(", r"\(").replace(")", r"\)")):
        entry_argv(str(tmp_path))
    with pytest.raises(ValueError, match=r"bot\.toml"):
        check_entry(str(tmp_path))


def test_a_folder_without_build_needs_its_program(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('run = "./no-such-program --fast"\n')
    with pytest.raises(ValueError, match="neither on PATH nor an existing file"):
        check_entry(str(tmp_path))
    assert entry_argv(str(tmp_path)) == [str(tmp_path.resolve() / "no-such-program"), "--fast"]


def test_a_toml_entries_file_names_folders_relative_to_itself(tmp_path: Path) -> None:
    python_folder(tmp_path / "students" / "alice")
    entries = tmp_path / "entries.toml"
    entries.write_text(
        '[[entry]]\nfolder = "students/alice"\n[[entry]]\nname = "base"\nbuiltin = "greedy"\n'
    )
    loaded = load_entries_toml(entries)
    assert [(e.name, e.spec) for e in loaded] == [
        ("folder-bot", str(tmp_path / "students" / "alice")),
        ("base", "greedy"),
    ]
    entries.write_text('[[entry]]\nfolder = "students/bob"\n')
    with pytest.raises(EntryError, match="no such bot folder"):
        load_entries_toml(entries)


def test_a_release_ships_every_kit_file_and_the_protos() -> None:
    """pyproject's package data for `sdk` covers each file `bot new --lang` copies."""
    import fnmatch
    import tomllib

    from tournaments.terminal.kits import KITS, PROTO_FILES

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["sdk"]
    shipped = [f"kits/{lang}/{name}" for lang, kit in KITS.items() for name in kit.files]
    shipped += [f"kits/proto/azul_arena/v1/{name}" for name in PROTO_FILES]
    for path in shipped:
        assert (root / "sdk" / path).is_file(), path
        assert any(fnmatch.fnmatch(path, p) for p in patterns), f"{path} is not package data"


def test_the_folder_of_a_python_bot_is_its_bot_py(tmp_path: Path) -> None:
    """`bot new NAME` (Python) makes no bot.toml: its folder is the entry folder/bot.py."""
    from typer.testing import CliRunner

    from referee.launcher import python_target
    from tournaments.cli import app

    runner = CliRunner()
    assert runner.invoke(app, ["bot", "new", "my-py", "--dir", str(tmp_path)]).exit_code == 0
    folder = tmp_path / "my-py"
    assert python_target(str(folder)) == str((folder / "bot.py").resolve())
    assert parse_entry(str(folder)).name == "my-py"
    checked = runner.invoke(app, ["bot", "check", str(folder), "-r", "azul", "-t", "0.3"])
    assert checked.exit_code == 0, checked.output


def test_a_build_writing_past_its_disk_limit_is_stopped(tmp_path: Path) -> None:
    # Up to 192 MiB in 64 KiB files; the limit is 4 MiB: it is stopped long before the end.
    loop = "for i in $(seq 3072); do head -c 65536 /dev/zero > f$i; done"
    folder = dataclasses.replace(
        read_folder(python_folder(tmp_path / "fat", loop)), build_disk=4 * 2**20
    )
    with pytest.raises(BuildError, match="wrote more than 4 MiB into its folder and was stopped"):
        asyncio.run(build(folder, tmp_path / "build.log"))
    left = sum(p.stat().st_size for p in folder.path.iterdir())
    assert left < 64 * 2**20, left  # near the limit (one poll's writing), not 192 MiB


def test_a_symlinked_or_giant_bot_toml_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "host-file"
    secret.write_text('run = "cat /etc/shadow"\n')
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "bot.toml").symlink_to(secret)
    with pytest.raises(FolderError, match="is a symbolic link"):
        read_folder(linked)
    giant = tmp_path / "giant"
    giant.mkdir()
    (giant / "bot.toml").write_text('run = "x"\n' + "# padding\n" * 10_000)
    with pytest.raises(FolderError, match="larger than 64 KiB"):
        read_folder(giant)
