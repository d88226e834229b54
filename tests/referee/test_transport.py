"""gRPC's polling settings: set before grpc loads, never over the user's own."""

from __future__ import annotations

import os
import subprocess
import sys

from referee.protocol.transport import EXPERIMENTS, TRIED, grpc_version, tune_grpc

SHOW = "import os, referee; print(os.environ.get('GRPC_EXPERIMENTS', '-'))"


def run(env: dict[str, str]) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    out = subprocess.run(
        [sys.executable, "-c", SHOW],
        env={**clean, **env},
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def test_the_installed_grpc_is_one_the_flags_were_tried_with() -> None:
    version = grpc_version()
    assert version is not None
    assert TRIED[0] <= version <= TRIED[1], (
        f"grpcio {version} is outside {TRIED}: measure the flags again (docs/protocol.md) and "
        "widen TRIED, or drop them"
    )


def test_importing_the_referee_sets_the_flags_for_it_and_its_bots() -> None:
    assert run({}) == EXPERIMENTS


def test_a_users_own_setting_is_kept() -> None:
    assert run({"GRPC_EXPERIMENTS": "-event_engine_client"}) == "-event_engine_client"


def test_nothing_is_set_once_grpc_is_loaded() -> None:
    environ: dict[str, str] = {}
    import grpc  # noqa: F401  (loaded by now in any case: the flags would come too late)

    assert tune_grpc(environ) is False and environ == {}


def test_a_bot_with_its_one_connection_also_gets_the_poll_poller() -> None:
    code = (
        "import os; from referee.protocol.transport import tune_grpc; e = {}; "
        "print(tune_grpc(e, one_connection=True), e.get('GRPC_POLL_STRATEGY'))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GRPC_")}
    out = subprocess.run(
        [sys.executable, "-c", code], env=clean, check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == ["True", "poll"]
