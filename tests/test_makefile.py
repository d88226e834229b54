"""`make install` says what runs before its long silent steps and hides setuptools' compat
editable-mode banner (and only that warning)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _install_steps() -> list[str]:
    if shutil.which("make") is None:
        pytest.skip("no make here")
    done = subprocess.run(
        ["make", "-n", "-B", "install"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_install_says_what_runs_before_pip() -> None:
    steps = _install_steps()
    pip = next(i for i, s in enumerate(steps) if "pip install" in s and " -e " in s)
    assert any(s.startswith("echo") and "pip installs" in s for s in steps[:pip]), steps


def test_the_compat_banner_filter_hides_that_warning_only() -> None:
    steps = _install_steps()
    line = next(s for s in steps if "editable_mode=compat" in s)
    found = re.search(r"PYTHONWARNINGS=(\S+)", line)
    assert found, line
    warn = (
        "import warnings\n"
        "warnings.warn_explicit('Compat editable installs', UserWarning, 'editable_wheel.py', 1,"
        " module='setuptools.command.editable_wheel')\n"
        "warnings.warn_explicit('another warning', UserWarning, 'other.py', 1, module='other')\n"
    )

    def run(env_filter: str | None) -> str:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
        if env_filter:
            env["PYTHONWARNINGS"] = env_filter
        return subprocess.run(
            [sys.executable, "-c", warn], capture_output=True, text=True, env=env, check=True
        ).stderr

    assert "Compat editable" in run(None)
    filtered = run(found.group(1))
    assert "Compat editable" not in filtered and "another warning" in filtered
