"""The project standard as tests: `ruff check .` and `mypy referee sdk bots tournaments` stay clean.

Both run from the repository root with this interpreter (`sys.executable -m ...`), so they use the
configuration in pyproject.toml and the venv's tools. mypy keeps its incremental cache in
.mypy_cache: the first run takes tens of seconds, later ones a few.
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
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


def _require(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (it is in the dev extras: pip install -e '.[dev]')")


def test_ruff_clean() -> None:
    _require("ruff")
    proc = _run("ruff", "check", ".")
    assert proc.returncode == 0, f"ruff check . failed:\n{proc.stdout}{proc.stderr}"


def test_mypy_clean() -> None:
    _require("mypy")
    proc = _run("mypy", *MYPY_TARGETS)
    assert proc.returncode == 0, (
        f"mypy {' '.join(MYPY_TARGETS)} failed:\n{proc.stdout}{proc.stderr}")


def test_import_contracts_hold() -> None:
    """referee/, sdk/ and bots/ never import the contest server (pyproject [tool.importlinter])."""
    _require("importlinter")
    proc = subprocess.run([str(Path(sys.executable).parent / "lint-imports")], cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, f"lint-imports failed:\n{proc.stdout}{proc.stderr}"
