"""Running the server: the database's schema, the organiser's account, the web server, the
reference bots as participants (`server demo`)."""

from __future__ import annotations

import io
import secrets
import threading
import zipfile
from dataclasses import dataclass
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
    server: Any
    thread: threading.Thread

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def serve(listen: str) -> WebServer:
    """Serve the site on HOST:PORT from threads of this process (Django's own threaded WSGI
    server; a department may put any WSGI server and a reverse proxy in front instead)."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

    from tournaments.server.wsgi import application

    host, port = parse_listen(listen)
    ipv6 = ":" in host

    class Quiet(WSGIRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # one line per request would drown the ladder's output

    server = ThreadedWSGIServer((host, port), Quiet, ipv6=ipv6)
    server.daemon_threads = True
    server.set_app(application)
    thread = threading.Thread(target=server.serve_forever, name="web", daemon=True)
    thread.start()
    return WebServer(server, thread)


def reference_archive(bot: str) -> bytes:
    """A .zip of a bot folder whose bot.py runs reference bot `bot`."""
    from referee import builtin_bots

    module, cls = builtin_bots()[bot].split(":")
    # The launcher runs the one Bot subclass a bot.py defines itself.
    source = (
        f"import sdk\nfrom {module} import {cls} as Reference\n\n\n"
        f'class {cls}(Reference):\n    """The reference bot {bot!r}, entered by the '
        f'organisers."""\n\n\nif __name__ == "__main__":\n    sdk.run({cls})\n'
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(f"{bot}/bot.py", source)
    return buf.getvalue()


def add_staff_bot(contest: Any, name: str, archive: bytes) -> Any:
    """A staff bot of `contest` (a participant marked as such) with a new version from
    `archive`; it is validated like any upload and is a bar of the grading export."""
    from tournaments.server.accounts.models import Participant
    from tournaments.server.submissions.intake import submit

    who, _ = Participant.objects.get_or_create(
        name=name, defaults={"staff_bot": True, "contest": contest}
    )
    if not who.staff_bot or who.contest_id != contest.pk:
        raise ValueError(
            f"{name!r} is already a participant that is not a staff bot of "
            f"{contest.label}; choose another name"
        )
    return submit(who, [archive])


def seed_reference_bots(bots: tuple[str, ...] = DEMO_BOTS) -> list[str]:
    """Each reference bot as a participant (marked as such) with one version, once."""
    from tournaments.server.accounts.models import Participant
    from tournaments.server.submissions.intake import submit

    added = []
    for bot in bots:
        who, made = Participant.objects.get_or_create(
            name=f"ref-{bot}", defaults={"staff_bot": True}
        )
        if made or not who.versions.exists():
            submit(who, [reference_archive(bot)])
            added.append(who.name)
    return added
