"""Kit bots built once and cached between runs (in the git-ignored .kits-cache/ of the checkout):
the Node.js kit with its npm dependencies, the C++ kit compiled. Each is the folder `bot new
--lang node|cpp` makes, plus the tests' own faulty bot; it is made again when a kit file, a
.proto or a test bot changes. Tests skip, saying why, where node or the C++ toolchain is missing.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tournaments.terminal.kits import KITS, kits_dir, prepare, prepare_command, scaffold_kit

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".kits-cache"
BOTS = Path(__file__).parent / "bots"
SAMPLE = {"node": "greedy-js", "cpp": "greedy-cpp"}
# The tests' faulty bot joins the C++ kit's CMake project (it links the kit's library).
CPP_FAULTY = (
    "\nadd_executable(faulty faulty.cpp)\ntarget_link_libraries(faulty PRIVATE azul_arena_kit)\n"
)


def missing_tools(lang: str) -> str:
    """What is missing to build and run `lang` kit bots here ("" when nothing)."""
    if lang == "node":
        lacking = [t for t in ("node", "npm") if shutil.which(t) is None]
        return f"{', '.join(lacking)} not installed: {KITS['node'].needs}" if lacking else ""
    lacking = [
        t
        for t in ("g++", "cmake", "pkg-config", "protoc", "grpc_cpp_plugin")
        if shutil.which(t) is None
    ]
    if not lacking and subprocess.run(["pkg-config", "--exists", "grpc++", "protobuf"]).returncode:
        lacking = ["grpc++ and protobuf development files"]
    return f"{', '.join(lacking)} not installed: {KITS['cpp'].needs}" if lacking else ""


def _fingerprint(lang: str, extra: Path) -> str:
    digest = hashlib.sha256()
    kit = kits_dir() / lang
    for name in KITS[lang].files:
        digest.update((kit / name).read_bytes())
    for proto in sorted((ROOT / "proto").rglob("*.proto")):
        digest.update(proto.read_bytes())
    digest.update(extra.read_bytes())
    return digest.hexdigest()


def kit_bot(lang: str, faulty: str, adjust: Callable[[Path], None] | None = None) -> Path:
    """The cached `lang` sample bot folder (with `faulty` copied in), made when stale."""
    reason = missing_tools(lang)
    if reason:
        pytest.skip(reason)
    home = CACHE / lang
    folder = home / SAMPLE[lang]
    stamp = home / "ready"
    fingerprint = _fingerprint(lang, BOTS / faulty)
    if stamp.is_file() and stamp.read_text() == fingerprint and folder.is_dir():
        return folder
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    scaffold_kit(lang, SAMPLE[lang], home)
    shutil.copy(BOTS / faulty, folder / faulty)
    if adjust is not None:
        adjust(folder)
    done = prepare(lang, folder)
    if done.returncode != 0:
        output = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        if lang == "node":  # no registry here (offline): nothing to test with
            pytest.skip(f"{prepare_command(lang, folder)} failed:\n{output}")
        pytest.fail(f"the C++ kit does not build:\n{output}")
    stamp.write_text(fingerprint)
    return folder


@pytest.fixture(scope="session")
def node_bot() -> Path:
    """The Node.js sample bot's folder, npm dependencies installed."""
    return kit_bot("node", "faulty.js")


@pytest.fixture(scope="session")
def cpp_bot() -> Path:
    """The C++ sample bot's folder, built (build/bot, build/faulty)."""

    def with_faulty(folder: Path) -> None:
        with open(folder / "CMakeLists.txt", "a") as cmake:
            cmake.write(CPP_FAULTY)

    return kit_bot("cpp", "faulty.cpp", with_faulty)
