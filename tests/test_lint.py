"""The project standard as tests: `ruff check .`, `mypy referee sdk bots tournaments` (strict on the
referee, the engine included, the SDK and the tournament domain) and the import contracts
(`lint-imports`) stay clean, as `make lint` runs them.

Both run from the repository root with this interpreter (`sys.executable -m ...`), so they use the
configuration in pyproject.toml and the venv's tools. mypy keeps its incremental cache in
.mypy_cache: the first run takes tens of seconds, later ones a few. The three mypy runs are marked
slow: `make lint` runs them first in CI (and before a commit), so `make test` does not pay for a
cold cache a second time; `make test-slow` runs them again on the warm one.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MYPY_TARGETS = ("referee", "sdk", "bots", "tournaments")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=240
    )


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (it is in the dev extras: pip install -e '.[dev]')")


def test_ruff_clean() -> None:
    _require("ruff")
    proc = _run("ruff", "check", ".")
    assert proc.returncode == 0, f"ruff check . failed:\n{proc.stdout}{proc.stderr}"


def test_ruff_format_clean() -> None:
    """The whole tree is as `ruff format` writes it."""
    _require("ruff")
    proc = _run("ruff", "format", "--check", ".")
    assert proc.returncode == 0, f"ruff format --check . failed:\n{proc.stdout}{proc.stderr}"


@pytest.mark.slow
def test_mypy_clean() -> None:
    _require("mypy")
    proc = _run("mypy", *MYPY_TARGETS)
    assert proc.returncode == 0, (
        f"mypy {' '.join(MYPY_TARGETS)} failed:\n{proc.stdout}{proc.stderr}"
    )


@pytest.mark.slow
def test_mypy_strict_on_the_referee_and_the_sdk() -> None:
    """What bot authors and the referee's users read and call is typed all the way down."""
    _require("mypy")
    proc = _run("mypy", "--strict", "referee", "sdk")
    assert proc.returncode == 0, f"mypy --strict failed:\n{proc.stdout}{proc.stderr}"


# The Makefile's STRICT_DOMAIN: the Dask cluster's modules are not in it (Dask ships no types).
STRICT_DOMAIN = [
    f"tournaments/domain/{name}.py"
    for name in (
        "tournament", "progress", "rounds", "schedule", "pairing", "ratings", "store",
        "entries", "report", "rerun", "compliance", "bundles", "settings",
    )
]  # fmt: skip


@pytest.mark.slow
def test_mypy_strict_on_the_tournament_domain() -> None:
    """The tournament's core (what the CLI, the server and the benchmarks call) is typed all
    the way down too."""
    _require("mypy")
    proc = _run("mypy", "--strict", *STRICT_DOMAIN)
    assert proc.returncode == 0, f"mypy --strict failed:\n{proc.stdout}{proc.stderr}"


def test_import_contracts_kept() -> None:
    """The layering in pyproject.toml's [tool.importlinter] (README, "A short tour")."""
    _require("importlinter")
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, f"lint-imports failed:\n{proc.stdout}{proc.stderr}"


def test_every_module_of_the_referee_is_behind_its_api() -> None:
    """A new module of the referee joins the contracts that keep the layers above and the bots
    off it (pyproject.toml): the lists are written out, so this keeps them whole."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    contracts = {c["name"]: c for c in config["contracts"]}
    protected = set(
        contracts[
            "Outside the referee, its modules are reached through its API (referee/__init__)"
        ]["protected_modules"]
    )
    off_limits = set(
        contracts["Bots and the SDK use only the engine and the protocol of the referee"][
            "forbidden_modules"
        ]
    )
    modules = {
        f"referee.{p.stem}"
        for p in (ROOT / "referee").glob("*.py")
        if p.stem not in ("__init__", "build_engine")
    }
    assert modules - protected == set(), "add them to the protected contract"
    assert modules - off_limits == set(), "add them to the bots' and SDK's forbidden contract"
