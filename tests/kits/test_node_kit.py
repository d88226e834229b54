"""The Node.js starter kit: `bot new --lang node` and `bot check` on its sample bot."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import Arena
from referee.tokens import TokenFile
from tests.kits.conftest import ROOT, missing_tools
from tournaments.cli import app

runner = CliRunner()
CLASSIC = ["azul", "azul-mini", "azul-gray", "azul-greenbox"]


def test_bot_new_node_makes_a_self_contained_folder(tmp_path: Path) -> None:
    made = runner.invoke(
        app, ["bot", "new", "my-js", "--lang", "node", "--no-install", "--dir", str(tmp_path)]
    )
    assert made.exit_code == 0, made.output
    folder = tmp_path / "my-js"
    assert {p.name for p in folder.iterdir()} >= {
        "bot.js",
        "azul-arena.js",
        "bot.toml",
        "package.json",
        "README.md",
        "proto",
    }
    for proto in (ROOT / "proto" / "azul_arena" / "v1").glob("*.proto"):
        assert (
            folder / "proto" / "azul_arena" / "v1" / proto.name
        ).read_text() == proto.read_text()
    assert 'run = "node --v8-pool-size=1 bot.js"' in (folder / "bot.toml").read_text()
    assert "name: 'my-js'" in (folder / "bot.js").read_text()
    assert json.loads((folder / "package.json").read_text())["name"] == "my-js"
    # Its README's commands are the ones to type for this bot.
    assert "tournament run my-js=./my-js greedy random" in (folder / "README.md").read_text()
    assert "npm install" in made.output  # --no-install: it says the one command instead
    again = runner.invoke(app, ["bot", "new", "my-js", "--lang", "node", "--dir", str(tmp_path)])
    assert again.exit_code == 2  # never overwrites a bot


def test_bot_new_refuses_an_unknown_language(tmp_path: Path) -> None:
    made = runner.invoke(app, ["bot", "new", "x", "--lang", "cobol", "--dir", str(tmp_path)])
    assert made.exit_code == 2
    assert "--lang" in made.output and not (tmp_path / "x").exists()


def test_node_sample_passes_bot_check_on_every_ruleset_it_declares(node_bot: Path) -> None:
    checked = runner.invoke(app, ["bot", "check", str(node_bot), "-t", "0.3", "--json"])
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.output.strip().splitlines()[-1])
    assert report["passed"] is True
    assert report["rulesets"] == CLASSIC  # what its Hello declares
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["launch and handshake"]["detail"] == "said Hello as 'greedy-js'"
    assert {"survives 2-player games", "survives 4-player games", "plays azul-gray"} <= set(checks)


def run_node(bot: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(bot / "bot.js"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_the_node_kit_says_why_it_cannot_play(node_bot: Path, tmp_path: Path) -> None:
    """The kit reports the two ways a bot is turned away: no referee at the address (exit 4)
    and a referee that refuses its token (exit 3)."""
    nobody = run_node(node_bot, "--referee", f"unix:{tmp_path}/nobody.sock")
    assert nobody.returncode == 4, nobody.stderr
    assert f"no referee answers at unix:{tmp_path}/nobody.sock" in nobody.stderr

    tokens = TokenFile.load(tmp_path / "tokens.json", create=True)
    tokens.issue("alice")

    async def go() -> subprocess.CompletedProcess[str]:
        async with Arena(["random"], listen="127.0.0.1:0", tokens=tokens) as arena:
            assert arena.server is not None
            return await asyncio.to_thread(
                run_node,
                node_bot,
                "--referee",
                f"127.0.0.1:{arena.server.port}",
                "--token",
                "alice.not-the-secret",
            )

    refused = asyncio.run(go())
    assert refused.returncode == 3, refused.stderr
    assert "the referee refused this bot" in refused.stderr


def test_a_match_shows_why_a_kit_bot_crashed(tmp_path: Path) -> None:
    """A newcomer who skipped `npm install` sees the kit's one-line answer under the match table,
    not only a crash in it."""
    reason = missing_tools("node")
    if reason:
        pytest.skip(reason)
    made = runner.invoke(
        app, ["bot", "new", "early", "--lang", "node", "--no-install", "--dir", str(tmp_path)]
    )
    assert made.exit_code == 0, made.output
    played = runner.invoke(
        app,
        [
            "match",
            str(tmp_path / "early"),
            "random",
            "--seed",
            "3",
            "--replay",
            str(tmp_path / "game.json"),
        ],
    )
    said = " ".join(played.output.split())  # rich's wrapping undone
    assert played.exit_code == 1, said  # it cannot start: no game is played without it
    assert "crash" in said
    assert '@grpc/grpc-js is not installed: run "npm install"' in said
