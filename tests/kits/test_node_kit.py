"""The Node.js starter kit: `bot new --lang node` and `bot check` on its sample bot."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.kits.conftest import ROOT
from tournaments.cli import app

runner = CliRunner()
CLASSIC = ["azul", "azul-mini", "azul-gray", "azul-greenbox"]


def test_bot_new_node_makes_a_self_contained_folder(tmp_path: Path) -> None:
    made = runner.invoke(app, ["bot", "new", "my-js", "--lang", "node", "--no-install",
                               "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output
    folder = tmp_path / "my-js"
    assert {p.name for p in folder.iterdir()} >= {"bot.js", "azul-arena.js", "bot.toml",
                                                  "package.json", "README.md", "proto"}
    for proto in (ROOT / "proto" / "azul_arena" / "v1").glob("*.proto"):
        assert (folder / "proto" / "azul_arena" / "v1" / proto.name).read_text() == \
            proto.read_text()
    assert 'run = "node bot.js"' in (folder / "bot.toml").read_text()
    assert "name: 'my-js'" in (folder / "bot.js").read_text()
    assert json.loads((folder / "package.json").read_text())["name"] == "my-js"
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
