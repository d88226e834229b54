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


def certificates(folder: Path, ca: str, *names: str) -> None:
    """A CA `ca` and, for each name, `name.pem` and `name.key` that it signed."""
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-keyout",
        f"{ca}.key",
        "-out",
        f"{ca}.pem",
        "-subj",
        f"/CN={ca}",
        cwd=folder,
    )
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
