"""The C++ starter kit: `bot new --lang cpp` and `bot check` on its sample bot (built once per
checkout, cached: see conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.folders import read_folder
from tests.kits.conftest import ROOT
from tournaments.cli import app

runner = CliRunner()
CLASSIC = ["azul", "azul-mini", "azul-gray", "azul-greenbox"]


def test_bot_new_cpp_makes_a_self_contained_folder(tmp_path: Path) -> None:
    made = runner.invoke(
        app, ["bot", "new", "my-cpp", "--lang", "cpp", "--no-install", "--dir", str(tmp_path)]
    )
    assert made.exit_code == 0, made.output
    folder = tmp_path / "my-cpp"
    assert {p.name for p in folder.iterdir()} >= {
        "bot.cpp",
        "azul_arena.hpp",
        "azul_arena.cpp",
        "CMakeLists.txt",
        "bot.toml",
        "README.md",
        "proto",
    }
    for proto in (ROOT / "proto" / "azul_arena" / "v1").glob("*.proto"):
        assert (
            folder / "proto" / "azul_arena" / "v1" / proto.name
        ).read_text() == proto.read_text()
    described = read_folder(folder)
    assert described.name == "my-cpp" and described.run == ("./build/bot",)
    assert described.build.startswith("cmake -S . -B build")
    assert 'return "my-cpp";' in (folder / "bot.cpp").read_text()
    # --no-install: it says the one command that builds it
    assert described.build in " ".join(made.output.split())


@pytest.mark.slow  # builds the C++ kit: about a minute of CPU on a fresh checkout (CI runs it)
def test_cpp_sample_passes_bot_check_on_every_ruleset_it_declares(cpp_bot: Path) -> None:
    checked = runner.invoke(app, ["bot", "check", str(cpp_bot), "-t", "0.3", "--json"])
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.output.strip().splitlines()[-1])
    assert report["passed"] is True
    assert report["rulesets"] == CLASSIC  # what its Hello declares
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["launch and handshake"]["detail"] == "said Hello as 'greedy-cpp'"
    assert {"survives 2-player games", "survives 4-player games", "plays azul-gray"} <= set(checks)
