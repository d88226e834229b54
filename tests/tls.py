"""TLS certificates for the tests, made with openssl: a CA and the certificates it signs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def need_openssl() -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed: apt-get install openssl")


def openssl(*args: str, cwd: Path | None = None) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60, cwd=cwd)


def self_signed(folder: Path, name: str, *extra: str) -> None:
    """`name.pem`, a self-signed certificate for CN=`name`, and its key `name.key` (`extra`:
    more `openssl req` arguments, such as a subjectAltName)."""
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-keyout",
        f"{name}.key",
        "-out",
        f"{name}.pem",
        "-subj",
        f"/CN={name}",
        *extra,
        cwd=folder,
    )


def certificates(folder: Path, ca: str, *names: str) -> None:
    """A CA `ca` and, for each name, `name.pem` and `name.key` that it signed."""
    self_signed(folder, ca)
    for name in names:
        openssl(
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            f"{name}.key",
            "-out",
            f"{name}.csr",
            "-subj",
            f"/CN={name}",
            cwd=folder,
        )
        openssl(
            "x509",
            "-req",
            "-in",
            f"{name}.csr",
            "-CA",
            f"{ca}.pem",
            "-CAkey",
            f"{ca}.key",
            "-CAcreateserial",
            "-out",
            f"{name}.pem",
            "-days",
            "1",
            cwd=folder,
        )
