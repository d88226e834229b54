"""Entries shipped to cluster workers: each entry's files packed once, named by their content.

Workers share no file system with the organiser. A built-in entry needs nothing (every worker has
azul-arena installed); a bot file travels with its whole folder (the SDK lets a bot import its
sibling modules), and so does a bot folder (bot.toml); a command line takes along each file or
folder it names outside the system's folders (a file with its folder, so `node bob/bot.js`
ships `bob/` and its `node_modules`). Each folder becomes one deterministic tar.gz named by its
SHA-256: a folder holding many entries is packed and sent once, and a worker unpacks each digest
once into its own cache (`$AZUL_ARENA_CACHE`, default `~/.cache/azul-arena`), shared by the
worker processes of a host. The entry's spec travels with `{bundle:DIGEST}` in place of the
folder; the worker puts its own path there.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import shlex
import shutil
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tournaments.domain.entries import Entry, EntryError, resolve_env

# A folder past these is not a bot's folder but somebody's home or project: refuse it clearly.
MAX_BUNDLE_BYTES = 256 << 20
MAX_BUNDLE_FILES = 20_000
# Never shipped: version control, caches, virtual environments, and CMake's cache, which names
# the organiser's absolute paths (a bot folder's build then configures afresh on the worker).
SKIPPED = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "CMakeFiles",
        "CMakeCache.txt",
    }
)
# Files under these belong to the machine (interpreters, tools): every worker has its own.
_SYSTEM = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/proc",
    "/sys",
    "/dev",
    "/snap",
    "/nix",
)
_PLACEHOLDER = re.compile(r"\{bundle:([0-9a-f]{64})\}")


@dataclass(frozen=True)
class PortableEntry:
    """An entry as a worker receives it: its spec with `{bundle:DIGEST}` for shipped folders."""

    name: str
    spec: str
    bundles: tuple[str, ...] = ()
    memory: int | None = None  # the entry's own memory limit, as locally
    env: tuple[tuple[str, str], ...] = ()  # its variables, resolved on the client


def _system_path(path: Path) -> bool:
    prefixes = {*_SYSTEM, sys.prefix, sys.base_prefix, sys.exec_prefix}
    return any(path == Path(p) or Path(p) in path.parents for p in prefixes)


def pack_folder(folder: Path) -> bytes:
    """`folder` as a deterministic tar.gz (sorted names, no owners or times): equal folders give
    equal bytes. Raises `EntryError` for a folder too large to be one bot's."""
    buf = io.BytesIO()
    files = size = 0
    with (
        gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=6) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
            for name in sorted(n for n in names if n not in SKIPPED):
                path = Path(root) / name
                if not path.is_file():
                    continue  # sockets, dangling links
                stat = path.stat()
                files, size = files + 1, size + stat.st_size
                if files > MAX_BUNDLE_FILES or size > MAX_BUNDLE_BYTES:
                    raise EntryError(
                        f"the folder {folder} is too large to ship to cluster workers (over "
                        f"{MAX_BUNDLE_FILES} files or {MAX_BUNDLE_BYTES >> 20} MiB): put the bot "
                        "in a folder of its own"
                    )
                info = tarfile.TarInfo(path.relative_to(folder).as_posix())
                info.size, info.mode = stat.st_size, 0o755 if stat.st_mode & 0o111 else 0o644
                with open(path, "rb") as f:
                    tar.addfile(info, f)
    return buf.getvalue()


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Packer:
    """Makes entries portable, packing each folder once (`bundles`: digest -> tar.gz bytes)."""

    def __init__(self) -> None:
        self.bundles: dict[str, bytes] = {}
        self._folders: dict[Path, str] = {}

    def _bundle(self, folder: Path) -> str:
        folder = folder.resolve()
        if folder not in self._folders:
            data = pack_folder(folder)
            self._folders[folder] = digest = digest_of(data)
            self.bundles[digest] = data
        return self._folders[folder]

    def _ship(self, token: str, used: list[str]) -> str:
        """`token` with a shipped file or folder replaced by its place in a bundle."""
        path = Path(token).expanduser()
        if not path.exists() or _system_path(path.resolve()):
            return token
        path = path.resolve()
        folder, inside = (path, "") if path.is_dir() else (path.parent, "/" + path.name)
        digest = self._bundle(folder)
        used.append(digest)
        return f"{{bundle:{digest}}}{inside}"

    def portable(self, entry: Entry) -> PortableEntry:
        from referee import is_folder_entry, parse_builtin, python_target

        used: list[str] = []
        try:
            target = python_target(entry.spec)
        except ValueError as exc:
            raise EntryError(f"entry {entry.name!r}: {exc}") from None
        if parse_builtin(entry.spec) is not None:
            spec = entry.spec
        elif is_folder_entry(entry.spec):  # a bot folder (bot.toml): the folder, whole
            spec = self._ship(entry.spec.strip(), used)
        elif target is None:  # a command line: ship what it names
            program, *args = shlex.split(entry.spec)
            # A bare program name (`node`) is the worker's own; a path to one is shipped.
            head = self._ship(program, used) if os.sep in program else program
            spec = shlex.join([head] + [self._ship(a, used) for a in args])
        else:  # path/bot.py[:Class]
            path = (
                entry.spec.rsplit(":", 1)[0] if re.search(r"\.py:\w+$", entry.spec) else entry.spec
            )
            spec = self._ship(path, used) + entry.spec[len(path) :]
        env = resolve_env(entry.env, f"entry {entry.name!r}")
        return PortableEntry(
            entry.name, spec, tuple(dict.fromkeys(used)), entry.memory, tuple(sorted(env.items()))
        )


def portable_entries(entries: Sequence[Entry]) -> tuple[list[PortableEntry], dict[str, bytes]]:
    """The entries as workers receive them, and the bundles they need (digest -> bytes)."""
    packer = Packer()
    return [packer.portable(e) for e in entries], packer.bundles


# -- the worker's side -------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where a worker keeps unpacked bundles and its bots' logs."""
    configured = os.environ.get("AZUL_ARENA_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "azul-arena"


def unpack(digest: str, data: bytes, cache: Path) -> Path:
    """The folder of bundle `digest` in `cache`, unpacked from `data` unless already there.

    Checked against its digest, unpacked beside its final place and renamed into it, so that
    worker processes sharing the cache never see half a folder."""
    folder = cache / "entries" / digest
    if folder.is_dir():
        return folder
    if digest_of(data) != digest:
        raise ValueError(f"bundle {digest[:12]} arrived damaged (its SHA-256 differs)")
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{digest[:12]}-", dir=folder.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            tar.extractall(tmp, filter="data")
        try:
            tmp.rename(folder)
        except OSError:
            if not folder.is_dir():  # not another process's win: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def resolve_spec(spec: str, folders: dict[str, Path]) -> str:
    """`spec` with each `{bundle:DIGEST}` replaced by that bundle's folder on this worker."""
    return _PLACEHOLDER.sub(lambda m: str(folders[m.group(1)]), spec)
