"""No process a bot's code runs in sees the referee's environment (docs/security.md): not its
build step, not the bot itself, not the wrappers that start them (bwrap stays as the PID 1 of
the sandbox's PID namespace, and its /proc/1/environ is readable from inside), at every level.

The referee here holds canaries where a server holds its secrets; a bot folder's build step and
the bot read every /proc/*/environ they can and report what holds a canary."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from pathlib import Path

import pytest

from referee import Arena, MatchConfig
from referee.sandbox import LEVELS, probe

PREFIX = "azul-canary-"
# Reads every /proc/*/environ it may: `READ pids...`, then `FOUND pid VARIABLE=value` for each
# variable holding a canary.
SNOOP = f"""
import os


def scan():
    read, found = [], []
    for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
        try:
            with open(f"/proc/{{pid}}/environ", "rb") as environ:
                data = environ.read()
        except OSError:
            continue
        read.append(pid)
        found += [
            f"FOUND {{pid}} {{v.decode(errors='replace')}}"
            for v in data.split(b"\\0")
            if b"{PREFIX}" in v
        ]
    return [f"READ {{' '.join(read)}}", *found]


if __name__ == "__main__":
    print("\\n".join(scan()), flush=True)
"""
BOT = """import sdk
import snoop

print("\\n".join(snoop.scan()), flush=True)


class Snoop(sdk.Bot):
    def choose_move(self, state):
        return state.legal_moves()[0]


if __name__ == "__main__":
    sdk.run(Snoop)
"""


def need(level: str) -> None:
    why = probe(level)
    if why is not None:
        pytest.skip(f"isolation {level} is not available here: {why}")


def snooping_bot(folder: Path, build: bool) -> Path:
    """A first-legal-move bot whose start scans the environments it can read; with `build`, a
    bot folder whose build step scans them too (into build-found.txt)."""
    folder.mkdir(parents=True)
    (folder / "snoop.py").write_text(SNOOP)
    (folder / "bot.py").write_text(BOT)
    if not build:
        return folder / "bot.py"
    (folder / "bot.toml").write_text(
        f'run = "{sys.executable} bot.py"\nbuild = "{sys.executable} snoop.py > build-found.txt"\n'
    )
    return folder


def reports(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """(the pids read, [(pid, variable)] holding a canary) from a scan's output."""
    read = next(line for line in text.splitlines() if line.startswith("READ")).split()[1:]
    found = [tuple(line.split(" ", 2)[1:]) for line in text.splitlines() if line[:6] == "FOUND "]
    return read, [(pid, variable) for pid, variable in found]


@pytest.mark.parametrize("level", LEVELS)
def test_no_process_of_a_bot_reads_the_referee_s_environment(
    level: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need(level)
    canary = f"{PREFIX}{uuid.uuid4().hex}"
    monkeypatch.setenv("AZUL_ARENA_SECRET_KEY", canary)
    monkeypatch.setenv("DATABASE_URL", f"postgres://arena:{canary}@localhost/arena")
    monkeypatch.setenv("AZUL_ARENA_EMAIL_PASSWORD", canary)
    folder = snooping_bot(tmp_path / "folder", build=True)
    plain = snooping_bot(tmp_path / "plain", build=False)  # a Python file: a warm standby's
    logs = tmp_path / "logs"

    async def go() -> None:
        async with Arena([str(folder), str(plain)], log_dir=logs, isolation=level) as arena:
            result = await arena.play([str(folder), str(plain)], MatchConfig(seed=2))
            assert [s.termination for s in result.seats] == ["ok", "ok"], result.seats

    asyncio.run(asyncio.wait_for(go(), 120))
    scans = {"build": (folder / "build-found.txt").read_text()}
    for log in sorted(logs.glob("*.log")):
        if not log.name.endswith("-build.log"):
            scans[log.name] = log.read_text(errors="replace")
    assert len(scans) == 3, f"the build and both bots scanned: {sorted(scans)}"
    # The referee itself (this process) is the one place a canary may be seen, and only at
    # `none`, where the bots share its /proc (docs/security.md): the PID namespace hides it.
    # (Its /proc/PID/environ shows the environment it started with, without the canaries set
    # since; a process started with the referee's environment shows them.)
    referee = str(os.getpid())
    for name, text in scans.items():
        read, found = reports(text)
        assert read, f"{name} read no environment at all: the scan did not work"
        if level == "sandbox":
            assert "1" in read, f"{name} could not read /proc/1/environ (bwrap's)"
        leaks = [(pid, v) for pid, v in found if canary in v and pid != referee]
        assert not leaks, f"{name} read the referee's environment at {level}: {leaks}"
        if level != "none":
            assert not found, f"{name} saw the referee itself at {level}: {found}"
