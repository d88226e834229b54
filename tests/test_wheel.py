"""The wheel a bot author installs: built by `python -m build`, it carries the compiled engine (a
compiler is here), the data files the commands read, and no server, cluster or RL package among
its requirements but as extras; installed alone, it plays a game on the compiled engine."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow  # about 30 s of CPU: mypyc compiles the engine into the wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not any(shutil.which(cc) for cc in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler: the wheel would be plain Python (apt-get install gcc)")
    pytest.importorskip("build", reason="`build` is not installed: make install")
    out = tmp_path_factory.mktemp("dist")
    leftovers = [ROOT / "build", ROOT / "azul_arena.egg-info"]
    fresh = [p for p in leftovers if not p.exists()]  # only what this build makes is removed
    # --no-isolation: the build uses this environment's setuptools and mypy (no network needed).
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=900,
    )
    for made in fresh:
        shutil.rmtree(made, ignore_errors=True)
    (built,) = out.glob("azul_arena-*.whl")
    return built


def test_the_wheel_holds_the_compiled_engine_and_the_data_files(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "referee/engine/compiled.sha256" in names
    assert any(n.startswith("referee/engine/game.") and n.endswith(".so") for n in names)
    assert any(n.startswith("bots/expert/tree.") and n.endswith(".so") for n in names)
    # Every data file the packages keep in git (pages, templates, kits, the .proto copies).
    tracked = subprocess.run(
        ["git", "ls-files", "referee", "sdk", "bots", "tournaments"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    data = [f for f in tracked if not f.endswith(".py") and not (ROOT / f).is_symlink()]
    assert data and [f for f in data if f not in names] == []
    assert "sdk/kits/proto/azul_arena/v1/bot.proto" in names  # the kits' link to proto/, copied


def test_the_server_cluster_and_rl_packages_are_extras(wheel: Path) -> None:
    metadata = zipfile.ZipFile(wheel).read("azul_arena-0.1.0.dist-info/METADATA").decode()
    requires = [
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.startswith("Requires-Dist:")
    ]
    for package, extra in (
        ("django", "server"),
        ("psycopg", "server"),
        ("dask", "cluster"),
        ("gymnasium", "rl"),
    ):
        (line,) = [r for r in requires if re.match(rf"{package}[^a-z-]", r)]
        assert f'extra == "{extra}"' in line, line


def test_installed_alone_it_plays_on_the_compiled_engine(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import referee.engine as e, sdk;"
        "g = e.new_game('azul', 2, seed=1);"
        "import random; r = random.Random(1)\n"
        "while not g.is_over(): g.push(r.choice(list(g.legal_moves())))\n"
        "print(e.COMPILED, e.__file__, g.scores)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    compiled, where, _scores = result.stdout.split(" ", 2)
    assert compiled == "True" and where.startswith(str(site))
