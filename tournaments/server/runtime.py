"""Running the server: the database's schema, the organiser's account, the web server, the
reference bots as participants, and the set-ups of `server init` (`initialise`) and `server
demo` (`prepare_demo`)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DEMO_BOTS = ("random", "greedy", "search", "mcts")


class ListenError(ValueError):
    pass


def parse_listen(listen: str) -> tuple[str, int]:
    """HOST:PORT (port 0: any free port) -> (host, port)."""
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ListenError(f"--listen is HOST:PORT, e.g. 127.0.0.1:8000, not {listen!r}")
    return host.strip("[]"), int(port)


def migrate() -> None:
    """Create or upgrade the database's tables (idempotent)."""
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def create_organiser(username: str, password: str | None = None) -> tuple[Any, str | None]:
    """A staff superuser (the organisers' admin); a random password when none is given, returned
    so that it can be shown once. An existing account is left as it is (password None)."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    existing = User.objects.filter(username=username).first()
    if existing is not None:
        return existing, None
    password = password or secrets.token_urlsafe(12)
    user = User.objects.create_superuser(username, password=password)
    return user, password


@dataclass
class WebServer:
    """The site's gunicorn (appserver.py), serving on `address`."""

    process: subprocess.Popen[bytes]
    address: tuple[str, int]
    stopping: bool = field(default=False, init=False)

    @property
    def url(self) -> str:
        host, port = self.address
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def stop(self) -> None:
        """Stop gracefully (requests in progress finish), killed if it takes longer."""
        self.stopping = True
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def watch(self, died: Callable[[int], None]) -> None:
        """Call `died(exit status)` from a thread if the server ends while not being stopped."""

        def wait() -> None:
            status = self.process.wait()
            if not self.stopping:
                died(status)

        threading.Thread(target=wait, name="web-watch", daemon=True).start()


def serve(listen: str, workers: int = 2) -> WebServer:
    """Serve the site on HOST:PORT through gunicorn in a process of its own (appserver.py), on
    a socket bound here: port 0 gets a free port, said in the URL; a department may put a
    reverse proxy in front. The settings reach it through the environment (the data folder is
    $AZUL_ARENA_SERVER_HOME since setup())."""
    host, port = parse_listen(listen)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.create_server((host, port), family=family, backlog=128) as sock:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tournaments.server.appserver",
                f"--fd={sock.fileno()}",
                f"--parent={os.getpid()}",
                f"--workers={workers}",
            ],
            pass_fds=[sock.fileno()],
        )
        return WebServer(process, sock.getsockname()[:2])


def seed_reference_bots(bots: tuple[str, ...] = DEMO_BOTS) -> list[str]:
    """Each reference bot as a participant (marked as such) with one version, once."""
    from tournaments.server.contests.models import Participant
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.services import reference_archive

    added = []
    for bot in bots:
        who, made = Participant.objects.get_or_create(
            name=f"ref-{bot}", defaults={"staff_bot": True}
        )
        if made or not who.versions.exists():
            submit(who, [reference_archive(bot)])
            added.append(who.name)
    return added


@dataclass(frozen=True)
class Prepared:
    """What `initialise` or `prepare_demo` made: the organiser's login and its password when
    the account is new (shown once; None: it existed, unchanged), the reference bots entered."""

    organiser: str
    password: str | None
    entered: list[str] = field(default_factory=list)


def initialise(
    organiser: str,
    password: str | None = None,
    ruleset: str | None = None,
    players: int | None = None,
    time_per_move: float | None = None,
    ruleset_options: dict[str, str] | None = None,
) -> Prepared:
    """`server init` on a migrated database: the default contest's settings given changed
    (ContestError when no game could be played with them) and the organiser's account."""
    from tournaments.server.contests.services import configure_default

    configure_default(ruleset, players, time_per_move, ruleset_options)
    _, made = create_organiser(organiser, password)
    return Prepared(organiser, made)


def prepare_demo(bots: tuple[str, ...] = DEMO_BOTS) -> Prepared:
    """`server demo` on a migrated database: quick moves (0.2 s) on a new ladder, an organiser
    and each reference bot of `bots` as a participant."""
    from tournaments.server.contests.services import configure_default
    from tournaments.server.ladder.models import Game

    configure_default(time_per_move=None if Game.objects.exists() else 0.2)
    _, password = create_organiser("organiser")
    return Prepared("organiser", password, seed_reference_bots(bots or DEMO_BOTS))
