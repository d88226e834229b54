"""gRPC's polling set-up for this project's traffic: many small messages between processes.

gRPC (1.8x) moves socket I/O to EventEngine threads of its own by default, so every message that
a Python thread sends or receives also wakes a second thread. With the older pollers that these
experiments switch back to, the Python thread that waits for a message does the I/O itself:
measured here, 15-20% less CPU per move on each side of the stream (docs/performance.md,
past experiments). GRPC_EXPERIMENTS is read once, when grpc is first imported, so this must run
before that; a GRPC_EXPERIMENTS the user set is left alone, and so is a grpc release these flags
were not tried with (an unknown flag makes grpc log an error in every process).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import MutableMapping

EXPERIMENTS = (
    "-event_engine_client,-event_engine_listener,"
    "-event_engine_for_all_other_endpoints,-event_engine_callback_cq"
)
# The referee starts bots with fork+exec (uvloop's spawn runs fork handlers), and no process of
# this project uses grpc in a forked child: grpc's fork handlers would only log a line per bot.
FORK_SUPPORT = "0"
TRIED = ((1, 80), (1, 89))  # grpcio releases (major, minor) these flags were measured with


def grpc_version() -> tuple[int, int] | None:
    """grpcio's (major, minor), read from its metadata file without importing grpc (an import
    would read GRPC_EXPERIMENTS too early; importlib.metadata costs about 50 ms)."""
    spec = importlib.util.find_spec("grpc")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(next(iter(spec.submodule_search_locations)), "_grpcio_metadata.py")
    try:
        with open(path, encoding="utf-8") as file:
            found = re.search(r"(\d+)\.(\d+)", file.read())
    except OSError:
        return None
    return (int(found[1]), int(found[2])) if found else None


def grpc_settings(one_connection: bool = False) -> dict[str, str]:
    """The variables for a process about to load grpc: empty for a grpc release these flags were
    not tried with. `one_connection` (a bot: one stream to the referee) also picks the `poll`
    poller, cheaper than epoll for a single socket."""
    version = grpc_version()
    if version is None or not TRIED[0] <= version <= TRIED[1]:
        return {}
    settings = {"GRPC_EXPERIMENTS": EXPERIMENTS, "GRPC_ENABLE_FORK_SUPPORT": FORK_SUPPORT}
    if one_connection:
        settings["GRPC_POLL_STRATEGY"] = "poll"
    return settings


def tune_grpc(
    environ: MutableMapping[str, str] = os.environ, *, one_connection: bool = False
) -> bool:
    """Apply `grpc_settings` to this process and its children, unless grpc is loaded already;
    a variable the user set is kept. Returns whether grpc will run with these settings."""
    if "grpc" in sys.modules:
        return False
    settings = grpc_settings(one_connection)
    for name, value in settings.items():
        environ.setdefault(name, value)
    return bool(settings)
