"""Whether the engine runs compiled (mypyc) or as plain Python, and never a stale build.

`make install` compiles the engine's core modules (and the expert bot's search, `SEARCH`) with
mypyc (see referee/build_engine.py) and writes a stamp with the hash of the sources it compiled.
Python prefers a compiled module to its source file, so an edited source next to an old build
would silently run the old code: when the stamp does not match the sources (or
AZUL_ARENA_PURE_PYTHON=1 is set), the sources are imported instead, and the compiled files are
ignored.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the checkout (or site-packages): module names are dotted from here
# The modules mypyc compiles: the hot core, and everything its classes derive from (below
# referee.engine)...
CORE = ("game", "errors", "rng", "bag", "rulesets", "batch", "features")
# ...and every module of every family package (a folder with an __init__.py) but these, which
# read and write text and run once per game at most.
UNCOMPILED_IN_FAMILY = frozenset({"__init__", "display", "record"})


# ...and, outside the engine, the expert bot's search (bots/expert): its simulations run the same
# few functions hundreds of thousands of times a move, and the strongest bot should think as
# fast as the engine lets it. Its tables of weights and its shell (bot.py, fit.py) stay Python.
SEARCH = tuple(
    f"bots.expert.{name}"
    for name in ("tree", "values", "solver", "learned", "pavilion_value", "pavilion_fields")
)


def _family_modules() -> tuple[str, ...]:
    return tuple(
        f"{package.parent.name}.{module.stem}"
        for package in sorted(HERE.glob("*/__init__.py"))
        for module in sorted(package.parent.glob("*.py"))
        if module.stem not in UNCOMPILED_IN_FAMILY
    )


# Full dotted names, spelled out: setup.py loads this file on its own, outside its package.
MODULES = tuple(f"referee.engine.{name}" for name in CORE + _family_modules()) + SEARCH
STAMP = HERE / "compiled.sha256"


def source_path(name: str) -> Path:
    """The source file of the compiled module `name` (dotted, as MODULES lists it)."""
    return ROOT.joinpath(*name.split(".")).with_suffix(".py")


def sources_hash() -> str:
    """The hash of the compiled modules' sources, as the stamp records it."""
    digest = hashlib.sha256()
    for name in MODULES:
        digest.update(source_path(name).read_bytes())
    return digest.hexdigest()


def build_is_current() -> bool:
    """True when a compiled build exists and was made from the sources as they are now."""
    if os.environ.get("AZUL_ARENA_PURE_PYTHON") == "1":
        return False
    try:
        return STAMP.read_text().strip() == sources_hash()
    except OSError:
        return False


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their .py files."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


COMPILED = build_is_current()
if not COMPILED:
    sys.meta_path.insert(0, _SourcesFirst())
