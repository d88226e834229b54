"""The Dask cluster over mutual TLS (docs/cluster.md, TLS): a real `dask scheduler` and `dask
worker` started with certificates of one CA play a real tournament for a client that has one;
the scheduler refuses a client without a certificate, or with one another CA signed, and a
plain tcp:// scheduler on another machine is named for what it exposes."""

from __future__ import annotations

import asyncio
import shutil
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tls import certificates, need_openssl
from tests.tournaments.test_cluster import end, scheduler_address
from tournaments.domain.cluster import exposure_warning

pytest.importorskip("distributed", reason="Dask not installed: make install")

VENV_BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]


def security_folder(base: Path, name: str, cert: str, ca: str = "ca") -> Path:
    """A --cluster-security folder: ca.pem, client.pem and client.key."""
    folder = base / name
    folder.mkdir()
    shutil.copy(base / f"{ca}.pem", folder / "ca.pem")
    shutil.copy(base / f"{cert}.pem", folder / "client.pem")
    shutil.copy(base / f"{cert}.key", folder / "client.key")
    return folder


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A scheduler and a worker over mutual TLS on 127.0.0.1, and the certificates' folder."""
    need_openssl()
    base = tmp_path_factory.mktemp("dask-tls")
    certificates(base, "ca", "scheduler", "worker", "client")
    certificates(base, "other-ca", "stranger")
    tls = ["--tls-ca-file", str(base / "ca.pem")]
    scheduler_file = base / "scheduler.json"
    processes = [
        subprocess.Popen(
            [
                str(VENV_BIN / "dask"),
                "scheduler",
                "--protocol",
                "tls",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(scheduler_file),
                *tls,
                "--tls-cert",
                str(base / "scheduler.pem"),
                "--tls-key",
                str(base / "scheduler.key"),
            ],
            cwd=base,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        address = scheduler_address(scheduler_file)
        assert address.startswith("tls://")
        processes.append(
            subprocess.Popen(
                [
                    str(VENV_BIN / "dask"),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    *tls,
                    "--tls-cert",
                    str(base / "worker.pem"),
                    "--tls-key",
                    str(base / "worker.key"),
                ],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        yield address, base
    finally:
        end(processes)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments.cli", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
    )


def test_a_tournament_on_a_cluster_over_mutual_tls(
    tls_cluster: tuple[str, Path], tmp_path: Path
) -> None:
    address, base = tls_cluster
    security = security_folder(base, "client-side", "client")
    out = run(
        "tournament",
        "run",
        "random",
        "greedy",
        "--games-per-pairing",
        "2",
        "--seed",
        "3",
        "--cluster",
        address,
        "--cluster-security",
        str(security),
        "--db",
        str(tmp_path / "t.db"),
        "--plain",
        "--json",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "warning" not in out.stderr
    from tournaments.domain.store import Store

    with Store.open(tmp_path / "t.db", create=False) as store:
        assert store.counts() == (2, 2)


def test_the_tls_scheduler_refuses_a_client_without_its_certificate(
    tls_cluster: tuple[str, Path], tmp_path: Path
) -> None:
    from distributed import Client
    from distributed.security import Security

    address, base = tls_cluster

    async def connect(security: Security) -> str:
        try:
            async with Client(address, asynchronous=True, timeout=5, security=security):
                return "connected"
        except (OSError, TimeoutError) as exc:
            return type(exc).__name__

    def tls_without_certificate() -> str:
        """A TLS session that trusts the scheduler's CA but shows no certificate of its own
        (Dask's own client will not even try): what the scheduler answers to a first byte."""
        host, port = address.removeprefix("tls://").rsplit(":", 1)
        context = ssl.create_default_context(cafile=str(base / "ca.pem"))
        context.check_hostname = False
        try:
            with (
                socket.create_connection((host, int(port)), timeout=5) as raw,
                context.wrap_socket(raw) as session,
            ):
                session.sendall(b"\0" * 8)
                return "answered" if session.recv(1) else "closed"
        except (OSError, ssl.SSLError) as exc:
            return type(exc).__name__

    stranger = Security(
        tls_ca_file=str(base / "ca.pem"),
        tls_client_cert=str(base / "stranger.pem"),
        tls_client_key=str(base / "stranger.key"),
        require_encryption=True,
    )
    client = Security(
        tls_ca_file=str(base / "ca.pem"),
        tls_client_cert=str(base / "client.pem"),
        tls_client_key=str(base / "client.key"),
        require_encryption=True,
    )
    refused = tls_without_certificate()
    assert refused != "answered"
    assert asyncio.run(connect(stranger)) != "connected"
    assert asyncio.run(connect(client)) == "connected"  # the same door opens for the right one

    # The command line: no certificate at all is said before connecting; a stranger's is
    # refused by the scheduler; neither plays anything.
    plain = run(
        "tournament",
        "run",
        "random",
        "greedy",
        "--cluster",
        address,
        "--db",
        str(tmp_path / "a.db"),
        "--plain",
        cwd=tmp_path,
    )
    assert plain.returncode != 0 and "--cluster-security" in plain.stdout + plain.stderr
    wrong = run(
        "tournament",
        "run",
        "random",
        "greedy",
        "--cluster",
        address,
        "--cluster-security",
        str(security_folder(base, "stranger-side", "stranger")),
        "--db",
        str(tmp_path / "b.db"),
        "--plain",
        cwd=tmp_path,
    )
    assert wrong.returncode != 0, wrong.stdout
    assert "cannot reach the Dask scheduler" in wrong.stdout + wrong.stderr


def test_plain_tcp_to_another_machine_is_named_for_what_it_exposes() -> None:
    warning = exposure_warning("tcp://10.1.2.3:8786")
    assert warning is not None and "run any code on every worker" in warning
    assert "tls://" in warning
    assert exposure_warning("tcp://127.0.0.1:8786") is None
    assert exposure_warning("tls://10.1.2.3:8786") is None
