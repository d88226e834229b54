"""`azul-arena replay analyse --cluster`: the decisions valued on a real Dask cluster (a
`dask scheduler` and a `dask worker` of two processes, started here) give the same analysis
as this machine's processes for the same seed; a cluster that cannot be used is a clear error."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tournaments.test_analyse_cli import analyse, game_file  # noqa: F401  (a fixture)
from tests.tournaments.test_cluster import scheduler_address

pytest.importorskip("distributed", reason="Dask not installed: make install")

VENV_BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a running `dask scheduler` with one `dask worker` of two processes."""
    base = tmp_path_factory.mktemp("dask")
    scheduler_file = base / "scheduler.json"
    common = {"cwd": base, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    processes = [
        subprocess.Popen(
            [str(VENV_BIN / "dask"), "scheduler", "--scheduler-file", str(scheduler_file),
             "--port", "0", "--no-dashboard"],
            start_new_session=True, **common,  # type: ignore[call-overload]
        )
    ]  # fmt: skip
    try:
        address = scheduler_address(scheduler_file)
        processes.append(
            subprocess.Popen(
                [str(VENV_BIN / "dask"), "worker", address, "--nworkers", "2", "--nthreads",
                 "1", "--no-dashboard"],
                start_new_session=True, **common,  # type: ignore[call-overload]
            )
        )  # fmt: skip
        yield address
    finally:
        for process in reversed(processes):
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(process.pid, signal.SIGKILL)


def test_the_cluster_gives_the_same_analysis_as_local_processes(
    scheduler: str,
    game_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    local = analyse(str(game_file), "--json", "--seed", "3")
    assert local.exit_code == 0, local.output
    out = tmp_path / "annotated"
    remote = analyse(str(game_file), "--json", "--seed", "3", "--cluster", scheduler, "-o",
                     str(out / "a.json"))  # fmt: skip
    assert remote.exit_code == 0, remote.output
    lines = [line for line in remote.output.splitlines() if line.startswith("{")]
    assert json.loads(lines[0]) == json.loads(local.output)
    assert (
        json.loads((out / "a.json").read_text())["analysis"]["moves"]
        == json.loads(local.output)["moves"]
    )


def test_a_cluster_that_cannot_be_used_says_what_to_do(game_file: Path) -> None:  # noqa: F811
    both = analyse(str(game_file), "--cluster", "tcp://127.0.0.1:8786", "--workers", "2")
    assert both.exit_code == 2 and "not both" in both.output
    plain = analyse(str(game_file), "--cluster", "tcp://127.0.0.1:1", "--cluster-security", ".")
    assert plain.exit_code == 2 and "tls://" in plain.output
    uncertified = analyse(str(game_file), "--cluster", "tls://127.0.0.1:1")
    assert uncertified.exit_code == 2 and "Traceback" not in uncertified.output
    assert "--cluster-security" in uncertified.output
