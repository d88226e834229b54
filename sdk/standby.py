"""A warm bot process: Python, grpc, protobuf, the engine and the SDK loaded before it knows which
bot it will be.

A fresh Python bot spends most of its time to Hello importing grpc and protobuf (about 100 of its
130-150 ms here). So the referee keeps one such process started ahead of need (see
`referee.launcher.launch_standby`): isolated and limited like any bot, waiting on its stdin. When a
Python bot is wanted, the referee writes it one line, `{"target": ..., "referee": ..., "token":
...}`, and the process becomes that bot, exactly as `python -m sdk.run TARGET` would, and says
Hello some 20 ms later. An empty stdin (the referee closed) ends it quietly.
"""

from __future__ import annotations

import argparse  # noqa: F401  (sdk.run's, loaded ahead)
import json
import os
import resource
import runpy
import shlex
import sys


def warm_up() -> None:
    """Import what every Python bot needs before it can say Hello."""
    from referee.protocol.transport import tune_grpc

    tune_grpc(one_connection=True)  # before grpc loads, as in sdk.client.play
    import grpc  # noqa: F401

    import referee.engine  # noqa: F401
    import sdk.client  # noqa: F401
    from referee.protocol.loop import loop_name

    loop_name()  # loads uvloop, the loop the SDK's stream runs on

    # Not sdk.run itself: it runs as __main__ below, as `python -m sdk.run` runs it.
    from referee.protocol import bot_pb2, codec  # noqa: F401


def show_as(argv: list[str]) -> None:
    """Show this process in ps, top and /proc/PID/cmdline as `argv`: once it is a bot, with the
    command line a bot started cold has, so that whoever looks for a runaway bot finds it by its
    name. The launcher reserved the room for it (referee.launcher.launch_standby)."""
    try:
        from setproctitle import setproctitle
    except ImportError:  # a dependency; without it the process is listed as sdk.standby
        return
    setproctitle(shlex.join(argv))


def main() -> None:
    show_as([sys.executable, "-m", "sdk.standby"])  # not the room its launcher reserved
    os.environ.pop("SPT_NOENV", None)  # read by setproctitle once, above; not the bot's business
    warm_up()
    line = sys.stdin.readline()
    if not line.strip():
        return
    order = json.loads(line)
    # The bot's stdin is /dev/null, as for a bot started cold: it reads nothing of the referee's.
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.environ["AZUL_ARENA_REFEREE"] = order["referee"]
    os.environ["AZUL_ARENA_TOKEN"] = order["token"]
    os.environ.update(order.get("env", {}))  # what the organiser passes to this entry
    if order.get("cwd"):
        os.chdir(order["cwd"])  # where a cold bot of this entry starts
    memory = order.get("memory")
    if memory:  # this entry's own limit, at most the one the standby started with
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or memory < hard:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    show_as([sys.executable, "-m", "sdk.run", order["target"]])
    sys.argv = ["-m", order["target"]]  # runpy puts sdk/run.py's path first, as `python -m` does
    runpy.run_module("sdk.run", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
