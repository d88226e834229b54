"""The wheel carries the compiled engine where a C compiler and mypyc are at hand.

Everything else about the package is in pyproject.toml. `python -m build` (or `pip wheel .`)
compiles the engine's core with mypyc, as `make install` does in a checkout, and puts the stamp
beside it that tells referee/engine/compiled.py the build matches its sources; without a compiler
(or with AZUL_ARENA_PURE_PYTHON=1) the wheel is plain Python and the engine runs as such.
Editable installs never compile here: `make install` runs referee/build_engine.py for them.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _compiled() -> Any:
    """referee/engine/compiled.py, loaded on its own (it imports only the standard library)."""
    path = ROOT / "referee" / "engine" / "compiled.py"
    spec = importlib.util.spec_from_file_location("_azul_engine_compiled", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiling() -> bool:
    if "bdist_wheel" not in sys.argv or os.environ.get("AZUL_ARENA_PURE_PYTHON") == "1":
        return False
    if importlib.util.find_spec("mypyc") is None:
        return False
    return any(shutil.which(cc) for cc in (os.environ.get("CC", "cc"), "gcc", "clang"))


class BuildWithStamp(build_py):
    """Copies the sources, then writes the stamp of the sources the extensions were built from."""

    def run(self) -> None:
        super().run()
        compiled = _compiled()
        stamp = Path(self.build_lib) / "referee" / "engine" / compiled.STAMP.name
        stamp.write_text(compiled.sources_hash() + "\n")


def _options() -> dict[str, Any]:
    if not _compiling():
        return {}
    from mypyc.build import mypycify

    compiled = _compiled()
    sources = [str(compiled.source_path(name).relative_to(ROOT)) for name in compiled.MODULES]
    return {"ext_modules": mypycify(sources), "cmdclass": {"build_py": BuildWithStamp}}


setup(**_options())
