"""`azul-arena contest login / submit / submissions / logs / challenge / compare`: a participant
taking part in a contest on a contest server, from their own machine
(tournaments/server/client.py: plain HTTP, no Django). The organiser's side is
`azul-arena server ...`.

The verbs were top-level once (`azul-arena login`, ...); those spellings still work, hidden,
and say where the verb moved."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from tournaments.commands.common import Exit, console, fail, moved, print_json
from tournaments.commands.groups import contest_app as participant_app
from tournaments.commands.groups import moved_apps

SERVER_HELP = (
    "the server's URL, e.g. http://localhost:8000 (default: $AZUL_ARENA_SERVER, else the "
    "server you logged in to last)"
)
Server = Annotated[
    str | None, typer.Option("--server", envvar="AZUL_ARENA_SERVER", help=SERVER_HELP)
]
Json = Annotated[bool, typer.Option("--json", help="one JSON object on stdout")]

T = TypeVar("T")


def _server(given: str | None) -> str:
    """--server, $AZUL_ARENA_SERVER or the last login's server (client.choose_server)."""
    from tournaments.server import client

    return _call(client.choose_server, given)


def _call(fn: Callable[..., T], *args: Any) -> T:
    """The server's answer; its refusal, or no answer, as an error (exit 1)."""
    from tournaments.server.client import ClientError

    try:
        return fn(*args)
    except ClientError as exc:
        fail(str(exc), Exit.FAILED)


@participant_app.command("login")
def login(
    server: Server = None,
    user: Annotated[
        str | None, typer.Option("--user", "-u", help="your login (default: asked)")
    ] = None,
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="read the password from stdin (scripts)")
    ] = False,
) -> None:
    """Log in to a contest server: an API token is made for this machine and kept in your
    config folder (readable by you only); `contest submit` uses it. Revoke it on the server's
    tokens page.

    Example: [bold]azul-arena contest login --server http://localhost:8000 -u alice[/]
    """
    import getpass
    import sys

    from tournaments.server import client

    server = _server(server)
    user = user or input("user: ")
    password = sys.stdin.readline().rstrip("\n") if password_stdin else getpass.getpass()
    reply = _call(client.login, server, user, password)
    console.print(
        f"logged in to {client.normal(server)} as {reply['user']}"
        + (f" (participant {reply['participant']})" if reply.get("participant") else ""),
        highlight=False,
    )


@participant_app.command("submit")
def submit(
    path: Annotated[Path, typer.Argument(help="the bot's folder, its bot.py, or a .zip/.tar.gz")],
    server: Server = None,
    participant: Annotated[
        str | None,
        typer.Option("--participant", help="the team to submit for (default: yours)"),
    ] = None,
    as_json: Json = False,
) -> None:
    """Submit a new version of your bot (a folder is packed as .tar.gz; .git and caches are
    left out). It is validated on the server before it plays.

    Example: [bold]azul-arena contest submit ./mybot --server http://localhost:8000[/]
    """
    from tournaments.server import client

    if not path.exists():
        fail(f"{path} does not exist")
    server = _server(server)
    reply = _call(client.submit, server, path, participant)
    if as_json:
        print_json(reply)
        return
    console.print(
        f"version {reply['version']} of {reply['participant']} received "
        f"({reply['size']} bytes, sha256 {reply['sha256'][:12]}); validation "
        f"follows: {reply['url']}",
        highlight=False,
    )


@participant_app.command("challenge")
def challenge(
    opponents: Annotated[
        list[str],
        typer.Argument(help="the opponents' participant names (players per game - 1 of them)"),
    ],
    server: Server = None,
    participant: Annotated[
        str | None, typer.Option("--participant", help="the team asking (default: yours)")
    ] = None,
    as_json: Json = False,
) -> None:
    """Ask for an unranked game of your active version against the opponents named: the ladder
    plays it next; it never changes a rating. The contest sets how many a day (its quota).

    Example: [bold]azul-arena contest challenge staff-greedy --server http://localhost:8000[/]
    """
    from tournaments.server import client

    server = _server(server)
    reply = _call(client.challenge, server, opponents, participant)
    if as_json:
        print_json(reply)
        return
    console.print(
        f"challenge of {reply['participant']} against {', '.join(reply['opponents'])} "
        f"scheduled as game {reply['game']} (unranked; "
        f"{reply['challenges_left_today']} left today): {reply['url']}",
        highlight=False,
    )


@participant_app.command("compare")
def compare(
    base: Annotated[
        str | None,
        typer.Argument(
            help="the version to beat: 'NAME vN' (any participant's, where standings are "
            "public), or 'vN' for your own (default: your previous version)"
        ),
    ] = None,
    version: Annotated[
        int | None, typer.Option("--version", help="your version tested (default: the active one)")
    ] = None,
    wait: Annotated[
        bool, typer.Option("--wait", help="ask again every few seconds until the test decides")
    ] = False,
    server: Server = None,
    participant: Annotated[
        str | None, typer.Option("--participant", help="the team asking (default: yours)")
    ] = None,
    as_json: Json = False,
) -> None:
    """Did your change help? A sequential test of your version against another, in unrated
    duplicate pairs the ladder plays when it has a slot free; each new version is tested
    against the one before it without asking. Run it again to see the test as it forms.
    Exit 0 when the test says better (H1), 1 otherwise (not better, or not decided yet).

    Example: [bold]azul-arena contest compare v2 --wait --server http://localhost:8000[/]
    """
    import time

    from tournaments.server import client

    server = _server(server)
    reply = _call(client.compare, server, base, version, participant)
    shown = ""
    while True:
        if not as_json and reply["summary"] != shown:
            shown = reply["summary"]
            console.print(shown, highlight=False, markup=False)
        if not (wait and reply["running"] and reply["verdict"] == "inconclusive"):
            break
        time.sleep(5)
        reply = _call(client.compare, server, base, version, participant)
    if as_json:
        print_json(reply)
    else:
        console.print(
            f"{reply['tests_left_today']} tests left to ask for today; the page: {reply['url']}",
            highlight=False,
        )
    raise typer.Exit(Exit.OK if reply["verdict"] == "H1" else Exit.FAILED)


@participant_app.command("submissions")
def submissions(server: Server = None, as_json: Json = False) -> None:
    """Your versions on a server: validation state and why a version failed.

    Example: [bold]azul-arena contest submissions --server http://localhost:8000[/]
    """
    from rich.table import Table

    from tournaments.server import client

    server = _server(server)
    reply = _call(client.versions, server)
    if as_json:
        print_json(reply)
        return
    table = Table(title=f"{reply['participant']} on {client.normal(server)}")
    for col in ("version", "uploaded", "state", "reason"):
        table.add_column(col, overflow="fold")
    for v in reply["versions"]:
        table.add_row(
            str(v["version"]), v["uploaded"][:19], v["state"], v["reason"] or v["suspended"]
        )
    console.print(table)


@participant_app.command("logs")
def logs(
    game: Annotated[int, typer.Argument(help="the game's number (its page is /games/GAME/)")],
    server: Server = None,
    as_json: Json = False,
) -> None:
    """Your bot's log in a ladder game: the last lines it wrote in that game (stdout and
    stderr as the referee captured them). Only your own seats (organisers: every seat).

    Example: [bold]azul-arena contest logs 1234 --server http://localhost:8000[/]
    """
    from tournaments.server import client

    server = _server(server)
    reply = _call(client.logs, server, game)
    if as_json:
        print_json(reply)
        return
    for seat in reply["seats"]:
        console.rule(f"game {game}, seat {seat['seat']}: {seat['version']} ({seat['termination']})")
        # A server before the "empty" key said nothing of why.
        empty = f"(empty: {seat['empty']})" if seat.get("empty") else "(empty)"
        console.print(seat["log"] or empty, highlight=False, markup=False)
        reason = seat.get("reason") or seat["termination"]
        if reason != "ok":  # last, where the eye lands: why the seat ended (as `match` says)
            console.print(f"ended: {reason}", highlight=False, markup=False)


# The old top-level spellings (before `contest`), hidden: scripts and older docs keep working.
for _verb, _fn in (
    ("login", login),
    ("submit", submit),
    ("challenge", challenge),
    ("submissions", submissions),
    ("logs", logs),
):
    moved_apps[_verb].command(_verb, hidden=True, deprecated=True)(
        moved(_verb, f"contest {_verb}", _fn)
    )
