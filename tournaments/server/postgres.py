"""A throwaway PostgreSQL server, started in a temporary folder (Debian's postgresql: `initdb`
and `pg_ctl`), listening on a unix socket only, stopped and removed afterwards: for the tests
on PostgreSQL and for `bench ladder --both`. Not for a real deployment (docs/deployment.md).

PostgreSQL refuses to run as root: run as root (CI), the server runs as the `postgres` system
user the package creates, through `runuser`.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name.split(".")[0]),
    )
    return Path(found[-1]).parent if found else None


def missing() -> str | None:
    """Why no PostgreSQL server can be started here (None: it can)."""
    if binaries() is None:
        return "PostgreSQL is not installed (Debian package postgresql; .ci/run installs it)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root and runuser is missing"
    return None


@contextmanager
def server(durable: bool = False) -> Iterator[str]:
    """Start a PostgreSQL server; yield its DATABASE_URL (a superuser, database `arena`).
    Tests run it without fsync (`-F`: faster, nothing to keep); `durable` keeps PostgreSQL's
    default (fsync on every commit), as a real server runs, for a benchmark."""
    bin_dir = binaries()
    assert bin_dir is not None, missing()
    folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, log = folder / "data", folder / "server.log"

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    try:
        run(
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            "arena",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        run(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-w",
            "-o",
            f"-k {folder} -c listen_addresses=''" + ("" if durable else " -F"),
            "start",
        )
        try:
            run(str(bin_dir / "createdb"), "-h", str(folder), "-U", "arena", "arena")
            yield f"postgresql://arena@/arena?host={folder}"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
