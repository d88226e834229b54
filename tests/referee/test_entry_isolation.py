"""Every way an entry joins runs under the same isolation, limits and hiding (docs/security.md):
a late entry (tournament add-entry) gets its own memory limit and its folder hidden from the
others (theirs from it), as the first entries do; and nothing a bot writes in one game can be
read by the next game of the same bot, nor by another entry."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import uuid
from pathlib import Path

import pytest

from referee import Arena, MatchConfig
from referee.sandbox import probe
from tournaments.domain.arena import arena_player
from tournaments.domain.entries import Entry
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.settings import MatchSettings

NOSY = Path(__file__).parent / "hostile" / "nosy" / "bot.py"


def need(level: str) -> None:
    why = probe(level)
    if why is not None:
        pytest.skip(f"isolation {level} is not available here: {why}")


def findings(log_dir: Path, name: str) -> list[dict[str, object]]:
    """What each process of entry `name` reported (NOSY lines), in launch order."""
    out = []
    logs = sorted(
        (p for p in log_dir.glob(f"{name}-*.log") if not p.stem.endswith("-build")),
        key=lambda p: p.stat().st_mtime_ns,
    )  # not its build's log
    for log in logs:
        seen: dict[str, object] = {}
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("NOSY "):
                _, key, value = line.split(" ", 2)
                seen[key] = int(value) if key == "rlimit_as" else json.loads(value)
        if seen:
            out.append(seen)
    return out


def nosy_at(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return Path(shutil.copy(NOSY, folder / "bot.py"))


@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_a_late_entry_is_limited_and_hidden_as_the_first_ones(level: str, tmp_path: Path) -> None:
    """`outer` holds the late entry's folder, which holds `peer`'s: the late entry joins with
    its own memory limit, outer no longer sees its files, and it does not see peer's."""
    need(level)
    outer = nosy_at(tmp_path / "outer")
    late = nosy_at(tmp_path / "outer" / "late")
    peer = nosy_at(tmp_path / "outer" / "late" / "peer")
    first = [Entry("outer", str(outer)), Entry("peer", str(peer))]
    joined = {"late": Entry("late", str(late), memory=256 << 20)}
    log_dir = tmp_path / "logs"

    async def go() -> None:
        settings = MatchSettings(isolation=level, time_per_move=5.0)
        async with arena_player(first, settings, log_dir, entry_of=joined.get) as play:
            game = ScheduledGame(
                index=0,
                game_id="g0",
                seats=("outer", "late", "peer"),
                seed=4,
                group=0,
                deal=0,
                rotation=0,
            )
            outcome = await play(game)
            assert all(s.termination == "ok" for s in outcome.seats), outcome.seats

    asyncio.run(asyncio.wait_for(go(), 180))
    seen = {name: findings(log_dir, name)[0] for name in ("outer", "late", "peer")}
    assert seen["late"]["rlimit_as"] == 256 << 20, "the late entry's own memory limit"
    assert seen["outer"]["rlimit_as"] == 2 << 30, "the others keep the default"
    if level == "sandbox":  # hiding is the sandbox's promise
        assert seen["outer"]["files"] == ["bot.py"], "the late entry's files are hidden"
        assert seen["late"]["files"] == ["bot.py"], "an earlier entry's files are hidden"
        assert seen["peer"]["files"] == ["bot.py"]


@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_no_state_survives_from_one_game_to_the_next(level: str, tmp_path: Path) -> None:
    """Two entries, two games, a new process for each game (reuse off): every process looks
    for the diaries the earlier ones left (its HOME, /tmp, /dev/shm, its folder, a shared
    host folder). In the sandbox it finds none; at `process` (the control) it does."""
    need(level)
    alice, bob = nosy_at(tmp_path / "alice"), nosy_at(tmp_path / "bob")
    shared = tmp_path / "shared"
    shared.mkdir()
    marker = uuid.uuid4().hex
    env = {"AZUL_TEST_SHARED": str(shared), "AZUL_TEST_MARKER": marker}
    log_dir = tmp_path / "logs"

    async def go() -> None:
        async with Arena(
            {"alice": str(alice), "bob": str(bob)},
            log_dir=log_dir,
            isolation=level,
            reuse=False,
            bot_env=env,
        ) as arena:
            for seed in (1, 2):
                result = await arena.play(
                    ["alice", "bob"], MatchConfig(seed=seed, time_per_move=5.0)
                )
                assert all(s.termination == "ok" for s in result.seats), result.seats

    try:
        asyncio.run(asyncio.wait_for(go(), 180))
    finally:
        for leftover in (Path("/tmp"), Path("/dev/shm")):
            (leftover / f"azul-diary-{marker}").unlink(missing_ok=True)
    runs = findings(log_dir, "alice") + findings(log_dir, "bob")
    assert len(runs) == 4, "a new process for each game of each entry"
    found = [run["found"] for run in runs]
    if level == "sandbox":
        assert found == [[]] * 4, found
    else:  # the control: the same bots do find each other's diaries at `process`
        assert any(found), found


@pytest.mark.parametrize("level", ["process", "sandbox"])
def test_a_folder_with_a_build_step_is_limited_and_hidden_too(level: str, tmp_path: Path) -> None:
    """A bot folder built before its first game: the build sees its folder without the
    entries nested in it, and its bot runs with the entry's own memory limit, hidden alike."""
    need(level)
    builder = tmp_path / "builder"
    builder.mkdir()
    shutil.copy(NOSY, builder / "nosy.py")
    (builder / "bot.toml").write_text(
        f'run = "{sys.executable} bot.py"\n'
        "build = 'cp nosy.py bot.py && find . -type f | sort > seen-by-build.txt'\n"
    )
    inner = nosy_at(builder / "inner")
    entries = [Entry("builder", str(builder), memory=256 << 20), Entry("inner", str(inner))]
    log_dir = tmp_path / "logs"

    async def go() -> None:
        settings = MatchSettings(isolation=level, time_per_move=5.0)
        async with arena_player(entries, settings, log_dir) as play:
            game = ScheduledGame(
                index=0,
                game_id="g0",
                seats=("builder", "inner"),
                seed=4,
                group=0,
                deal=0,
                rotation=0,
            )
            outcome = await play(game)
            assert all(s.termination == "ok" for s in outcome.seats), outcome.seats

    asyncio.run(asyncio.wait_for(go(), 180))
    seen = findings(log_dir, "builder")[0]
    assert seen["rlimit_as"] == 256 << 20
    if level == "sandbox":
        built = (builder / "seen-by-build.txt").read_text().split()
        assert "./inner/bot.py" not in built and "./nosy.py" in built, built
        assert "inner/bot.py" not in seen["files"], seen["files"]
