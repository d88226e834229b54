"""The site's web server: gunicorn, in a process of its own that `server run` starts
(runtime.serve) on a socket `server run` has already bound.

Binding in `server run` keeps `--listen HOST:0` (any free port) able to print the port it got,
and lets a client connect at once: the connection waits in the socket's queue until a worker
accepts it. gunicorn's master forks `--workers` processes of threaded workers (gthread, bounded
against slow clients by slowguard.py); the application is loaded once in the master (preload),
so a bad setting, such as a missing secret key, stops the start instead of every worker. The
master ends when `server run` ends: SIGTERM stops it gracefully, and so does `server run` dying
(Linux's parent-death signal).

    python -m tournaments.server.appserver --fd N --parent PID [--workers 2] [--threads 16]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import sys
from typing import Any

from gunicorn.app.base import BaseApplication

PR_SET_PDEATHSIG = 1


class Site(BaseApplication):  # type: ignore[misc]  # gunicorn has no type hints
    def __init__(self, fd: int, workers: int, threads: int) -> None:
        self.options = {
            "bind": [f"fd://{fd}"],
            "workers": workers,
            "threads": threads,
            # gunicorn's gthread, bounded in time and per client address against slow clients.
            "worker_class": "tournaments.server.slowguard.GuardedWorker",
            "preload_app": True,
            "loglevel": "warning",  # no line per request: they would drown the ladder's output
            "graceful_timeout": 10,
            "proc_name": "azul-arena-web",
            # No ~/.gunicorn/gunicorn.ctl shared by every server of the user.
            "control_socket_disable": True,
        }
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.options.items():
            if name in self.cfg.settings:  # an older gunicorn lacks the control socket
                self.cfg.set(name, value)

    def load(self) -> Any:
        from tournaments.server.wsgi import application

        return application


def _die_with(parent: int) -> None:
    """SIGTERM to this process when `parent` (server run) ends, however it ends."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it ended before the signal was asked for
        sys.exit(0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tournaments.server.appserver")
    parser.add_argument("--fd", type=int, required=True, help="the bound listening socket")
    parser.add_argument("--parent", type=int, required=True, help="server run's process id")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args(argv)
    _die_with(args.parent)
    Site(args.fd, args.workers, args.threads).run()


if __name__ == "__main__":
    main()
