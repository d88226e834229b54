"""Fixtures of the referee's tests: TLS certificates made with openssl."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed server certificate for localhost and its key."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed: apt-get install openssl")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-keyout",
        str(key),
        "-out",
        str(cert),
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
    )
    return cert, key


@pytest.fixture(scope="session")
def client_certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA, a client certificate it signed (`operator`) and one another CA signed
    (`stranger`): `{name}.pem` and `{name}.key` for each, and `ca.pem`."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed: apt-get install openssl")
    folder = tmp_path_factory.mktemp("client-tls")
    out = {}
    for ca in ("ca", "other-ca"):
        openssl(
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            str(folder / f"{ca}.key"),
            "-out",
            str(folder / f"{ca}.pem"),
            "-subj",
            f"/CN={ca}",
        )
    for name, ca in (("operator", "ca"), ("stranger", "other-ca")):
        key, csr, cert = (folder / f"{name}.{x}" for x in ("key", "csr", "pem"))
        openssl(
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(csr),
            "-subj",
            f"/CN={name}",
        )
        openssl(
            "x509",
            "-req",
            "-in",
            str(csr),
            "-CA",
            str(folder / f"{ca}.pem"),
            "-CAkey",
            str(folder / f"{ca}.key"),
            "-CAcreateserial",
            "-out",
            str(cert),
            "-days",
            "1",
        )
        out[f"{name}.pem"], out[f"{name}.key"] = cert, key
    out["ca.pem"] = folder / "ca.pem"
    return out
