"""The wire contract as last released, kept as a buf image that `buf breaking --against` reads.

`python -m referee.protocol.release COMMIT` (when a release is cut, with its commit) writes the
image of proto/ at COMMIT and the commit's name beside it, both under tests/referee/data/ to be
committed: the compatibility test then needs no git history (a fresh or shallow clone, CI), and
tests/referee/test_protocol_stubs.py rebuilds the image from that commit wherever the history
holds it, to check the committed one is what it says.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from referee.protocol.generate import PROTO_DIR, ROOT

DATA = ROOT / "tests" / "referee" / "data"
IMAGE = DATA / "proto-release.binpb"
COMMIT = DATA / "proto-release.commit"  # the released commit, in full, on one line


class ReleaseError(Exception):
    """The image cannot be built: a commit git does not know, or buf failed (with its words)."""


def buf() -> str:
    """The buf binary: on PATH, or beside this Python (the dev dependency buf-bin)."""
    found = shutil.which("buf") or str(Path(sys.executable).parent / "buf")
    if not Path(found).exists():
        raise ReleaseError("buf not found: it comes with the dev dependency buf-bin (make install)")
    return found


def released_commit() -> str:
    """The commit whose contract the committed image holds."""
    return COMMIT.read_text().strip()


def resolve(commit: str) -> str | None:
    """`commit` in full, or None when this clone's history does not hold it."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return found.stdout.strip() if found.returncode == 0 else None


def shallow() -> bool:
    """Whether this clone holds only part of the history (git clone --depth)."""
    found = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return found.stdout.strip() == "true"


def build_image(commit: str, out: Path) -> None:
    """Write the buf image of proto/ as it is at `commit` to `out`.

    The files come out of git and buf builds them as a folder: buf's own git input clones the
    repository 50 commits deep and cannot reach an older release."""
    proto = PROTO_DIR.relative_to(ROOT).as_posix()
    with tempfile.TemporaryDirectory(prefix="azul-proto-release-") as tmp:
        for name in _git(commit, "ls-tree", "-r", "--name-only", commit, proto).splitlines():
            target = Path(tmp) / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_git(commit, "show", f"{commit}:{name}"))
        built = subprocess.run(
            [buf(), "build", "-o", str(out.resolve())],
            cwd=Path(tmp) / proto,
            capture_output=True,
            text=True,
            timeout=120,
        )
    if built.returncode != 0:
        raise ReleaseError(f"buf build of proto/ at {commit}: {built.stderr.strip()}")


def _git(commit: str, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise ReleaseError(f"proto/ at {commit}: git {args[0]}: {done.stderr.strip()}")
    return done.stdout


def record_release(commit: str) -> str:
    """Make `commit` the release the compatibility test compares against: its image and its
    name under tests/referee/data/. Returns the commit in full."""
    full = resolve(commit)
    if full is None:
        hint = "; this clone is shallow: git fetch --unshallow" if shallow() else ""
        raise ReleaseError(f"{commit!r} is not a commit of this clone{hint}")
    DATA.mkdir(parents=True, exist_ok=True)
    build_image(full, IMAGE)
    COMMIT.write_text(full + "\n")
    return full


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m referee.protocol.release COMMIT (the release's commit)")
        return 2
    try:
        full = record_release(argv[0])
    except ReleaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{IMAGE.relative_to(ROOT)}: the contract at {full}; commit it with {COMMIT.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
