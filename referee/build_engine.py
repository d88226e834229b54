"""Compile the engine's core (and the expert bot's search) with mypyc: `python -m
referee.build_engine` (run by `make install`).

The compiled modules behave exactly as their sources (the engine's tests run against whichever is
in use, and tests/engine/test_compiled.py compares the two); they are about twice as fast, which
every search bot and the referee feel. On any failure the build is removed and the engine runs
as plain Python: compiling is an optimisation, never a requirement.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.engine.compiled import HERE, MODULES, ROOT, SEARCH, STAMP, source_path, sources_hash


def built_files() -> list[Path]:
    """The compiled files a build leaves: every extension in the engine's folder (an older
    build's too), the expert's search's beside their sources, and mypyc's shared library."""
    outside = [source_path(name) for name in SEARCH]
    return [
        *HERE.rglob("*.so"),
        *(found for source in outside for found in source.parent.glob(f"{source.stem}.*.so")),
        *ROOT.glob("*__mypyc*.so"),
    ]


def clean() -> None:
    for path in built_files():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def build() -> bool:
    """Compile in place; True on success. The stamp is written last, only for a full build."""
    clean()
    sources = [str(source_path(name).relative_to(ROOT)) for name in MODULES]
    # mypyc says nothing for a minute or more: say what runs before it starts.
    print(
        f"engine: compiling {len(MODULES)} modules with mypyc (about a minute; the engine stays"
        " plain Python if it fails)",
        flush=True,
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="azul-mypyc-") as tmp:
        # mypyc builds under ./build and copies the extensions next to their sources.
        result = subprocess.run(
            [sys.executable, "-m", "mypyc", *sources],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**__import__("os").environ, "MYPY_CACHE_DIR": tmp},
        )
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    if result.returncode != 0:
        clean()
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        print(f"engine: mypyc failed, the engine runs as plain Python.\n{tail}", file=sys.stderr)
        return False
    STAMP.write_text(sources_hash() + "\n")
    print(
        f"engine: compiled {len(MODULES)} modules with mypyc in {time.monotonic() - started:.0f} s"
    )
    return True


def main() -> int:
    if "--clean" in sys.argv:
        clean()
        return 0
    build()
    return 0  # a failed build leaves a working (slower) engine: not an install failure


if __name__ == "__main__":
    raise SystemExit(main())
