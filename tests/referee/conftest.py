"""Fixtures of the referee's tests: TLS certificates made with openssl."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tls import certificates, need_openssl, self_signed


@pytest.fixture(scope="session")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed server certificate for localhost and its key."""
    need_openssl()
    folder = tmp_path_factory.mktemp("tls")
    self_signed(folder, "localhost", "-addext", "subjectAltName=DNS:localhost")
    cert, key = folder / "localhost.pem", folder / "localhost.key"
    return cert, key


@pytest.fixture(scope="session")
def client_certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A CA, a client certificate it signed (`operator`) and one another CA signed
    (`stranger`): `{name}.pem` and `{name}.key` for each, and `ca.pem`."""
    need_openssl()
    folder = tmp_path_factory.mktemp("client-tls")
    certificates(folder, "ca", "operator")
    certificates(folder, "other-ca", "stranger")
    out = {
        f"{name}.{kind}": folder / f"{name}.{kind}"
        for name in ("operator", "stranger")
        for kind in ("pem", "key")
    }
    out["ca.pem"] = folder / "ca.pem"
    return out
