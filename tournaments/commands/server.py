"""The contest server's commands: `server init / run / ladder / demo` for organisers, and
`login / submit / submissions / challenge / logs` for participants (docs/server.md)."""
# ruff: noqa: B008  (typer declares options as argument defaults)

from __future__ import annotations

import getpass
import os
from pathlib import Path
from typing import Any

import typer

from tournaments.commands.common import (
    ISOLATION_HELP,
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    Exit,
    check_isolation,
    console,
    err_console,
    fail,
    parse_options,
    print_json,
)
from tournaments.commands.groups import app, server_app

HOME_HELP = (
    "the server's data folder: database, archives, versions, logs (default: "
    "$AZUL_ARENA_SERVER_HOME, else ./arena-server)"
)
SERVER_HELP = "the server's URL, e.g. http://localhost:8000"


def _setup(home: Path | None, make_key: bool = False) -> Path:
    """Configure Django on the data folder; `make_key` (init, demo) first makes its secret key
    file unless $AZUL_ARENA_SECRET_KEY is set: the only commands that make one."""
    from tournaments.server import HOME_VARIABLE, setup

    chosen = home or Path(os.environ.get(HOME_VARIABLE) or "arena-server")
    try:
        chosen.mkdir(parents=True, exist_ok=True)  # the settings only read it
        if make_key:
            from tournaments.server.secret import make_key as make

            make(chosen.resolve())
        setup(chosen)
    except Exception as exc:  # noqa: BLE001 - a bad DATABASE_URL, an unwritable folder
        fail(f"cannot start the server's Django project: {exc}")
    return chosen.resolve()


def _contest_options(
    ruleset: str | None,
    players: int | None,
    time_per_move: float | None,
    ruleset_options: dict[str, str] | None = None,
) -> None:
    from django.core.exceptions import ValidationError

    from tournaments.server.contests.models import Contest

    contest = Contest.current()
    if ruleset is not None:
        contest.ruleset = ruleset
    if players is not None:
        contest.players = players
    if time_per_move is not None:
        contest.time_per_move = time_per_move
    if ruleset_options:
        contest.ruleset_options = {**contest.ruleset_options, **ruleset_options}
    try:
        contest.clean()
    except ValidationError as exc:
        fail("; ".join(exc.messages))
    contest.save()


def _ladder(
    concurrency: int,
    isolation: str | None,
    games: int | None,
    cluster: str | None = None,
    contest: str | None = None,
    cluster_security: Path | None = None,
) -> Any:
    from referee import run_loop
    from tournaments.server.ladder.worker import LadderWorker

    def told(game_id: int) -> None:
        err_console.print(f"game {game_id} played", highlight=False)

    from tournaments.commands.common import cluster_options

    options = cluster_options(cluster, None, concurrency, cluster_security)
    worker = LadderWorker(
        concurrency=concurrency,
        isolation=isolation,
        max_games=games,
        on_game=told,
        cluster=options,
        contest=contest,
    )
    try:
        return run_loop(worker.run())
    except Exception as exc:  # a cluster that cannot be used at all, said in a sentence
        from tournaments.cluster import ClusterError

        if isinstance(exc, ClusterError):
            fail(str(exc), Exit.FAILED)
        raise


@server_app.command("init")
def server_init(
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    organiser: str = typer.Option("organiser", "--organiser", help="the organiser's login"),
    password: str | None = typer.Option(
        None, "--password", help="default: a random one, printed once"
    ),
    ruleset: str | None = typer.Option(None, "--ruleset", "-r", help="the contest's ruleset"),
    players: int | None = typer.Option(
        None, "--players", min=2, max=4, help="seats per ladder game"
    ),
    time_per_move: float | None = typer.Option(None, "--time-per-move", "-t", min=0.01),
    option: list[str] = typer.Option([], "--option", help=OPTION_HELP),
    wild: str | None = typer.Option(None, WILD_ORDER_ALIAS, help=WILD_ORDER_HELP),
) -> None:
    """Create (or upgrade) the server's database and an organiser account, and say how to log
    in. Running it again changes only what it is given.

    Example: [bold]azul-arena server init --home ./contest --ruleset azul --players 2[/]
    """
    folder = _setup(home, make_key=True)
    from tournaments.server.runtime import create_organiser, migrate

    migrate()
    _contest_options(ruleset, players, time_per_move, parse_options(option, wild))
    _, made = create_organiser(organiser, password)
    console.print(f"server data in {folder}", highlight=False)
    if made is not None:
        console.print(
            f"organiser account: [bold]{organiser}[/] password [bold]{made}[/] "
            f"(shown once; change it in the admin)",
            highlight=False,
        )
    else:
        console.print(
            f"organiser account {organiser!r} exists (its password is unchanged)", highlight=False
        )
    console.print(
        f"next: azul-arena server run --home {folder} --listen 127.0.0.1:8000, "
        f"then log in at http://127.0.0.1:8000/login/ (organisers: /admin/)",
        highlight=False,
    )


@server_app.command("ladder")
def server_ladder(
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1, help="games at once"),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    games: int | None = typer.Option(
        None, "--games", min=1, help="stop after this many games (default: never)"
    ),
    cluster: str | None = typer.Option(
        None,
        "--cluster",
        metavar="tls://HOST:8786",
        help="play the games on this Dask scheduler's workers "
        "(docs/cluster.md); validation stays here",
    ),
    cluster_security: Path | None = typer.Option(
        None,
        "--cluster-security",
        metavar="DIR",
        help="mutual TLS with a tls:// scheduler: DIR holds ca.pem, client.pem and client.key "
        "(as tournament run --cluster-security)",
    ),
    contest: str | None = typer.Option(
        None, "--contest", help="the contest it serves (default: the default contest)"
    ),
) -> None:
    """The ladder worker alone: validates new versions and plays ranked games until stopped
    (SIGTERM or Ctrl-C; a SIGKILL loses nothing either: the next start replays the games in
    flight, and nothing is rated twice).

    Example: [bold]azul-arena server ladder --home ./contest --concurrency 4[/]
    """
    _setup(home)
    level = check_isolation(isolation)
    from tournaments.server.runtime import migrate

    migrate()
    err_console.print(
        f"ladder worker started (isolation: {level}, {concurrency} games at once)", highlight=False
    )
    if contest is not None:
        _contest(contest)
    stats = _ladder(concurrency, level, games, cluster, contest, cluster_security)
    err_console.print(
        f"ladder stopped: {stats.played} games played, {stats.validated} "
        f"versions validated, {stats.infrastructure_failures} infrastructure "
        f"failures (not rated)"
        + (
            f", {stats.recorded_elsewhere} played but recorded by another worker first"
            if stats.recorded_elsewhere
            else ""
        ),
        highlight=False,
    )


def _run(
    listen: str,
    concurrency: int,
    isolation: str | None,
    ladder: bool,
    games: int | None,
    banner: str = "",
    web_workers: int = 2,
) -> None:
    from tournaments.server.runtime import ListenError, serve

    level = check_isolation(isolation) if ladder else None
    try:
        web = serve(listen, web_workers)
    except (ListenError, OSError) as exc:
        fail(f"cannot listen on {listen}: {exc}")
        return
    died: list[int] = []

    def web_died(status: int) -> None:  # stop the ladder (or the wait) as Ctrl-C would
        import signal

        died.append(status)
        os.kill(os.getpid(), signal.SIGTERM)

    web.watch(web_died)
    console.print(
        f"{banner}serving on [bold]{web.url}[/]"
        + (f" (ladder: isolation {level})" if ladder else " (no ladder)"),
        highlight=False,
    )
    try:
        if ladder:
            _ladder(concurrency, level, games)
        else:
            import signal
            import threading

            stop = threading.Event()
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
            try:
                stop.wait()
            except KeyboardInterrupt:
                pass
    finally:
        web.stop()
    if died:
        fail(f"the web server (gunicorn) ended with status {died[0]}: its error is above")


def _check_key() -> None:
    """Refuse to serve with no secret key, a published one or one tracked by git."""
    from django.conf import settings

    from tournaments.server.secret import configured_key, refusal

    problem = refusal(settings.HOME, configured_key())
    if problem is not None:
        fail(problem)


@server_app.command("run")
def server_run(
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    listen: str = typer.Option("127.0.0.1:8000", "--listen", help="HOST:PORT to serve on"),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1, help="ladder games at once"),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    ladder: bool = typer.Option(
        True, "--ladder/--no-ladder", help="run the ladder worker in this process too"
    ),
    web_workers: int = typer.Option(
        2, "--web-workers", min=1, help="the web server's processes (gunicorn, 16 threads each)"
    ),
) -> None:
    """The web site and the ladder worker, one command on one machine.

    Example: [bold]azul-arena server run --home ./contest --listen 0.0.0.0:8000[/]
    (outside localhost, set AZUL_ARENA_ALLOWED_HOSTS to the names it is reached by)
    """
    _setup(home)
    _check_key()
    from tournaments.server.runtime import migrate

    migrate()
    _run(listen, concurrency, isolation, ladder, None, web_workers=web_workers)


@server_app.command("demo")
def server_demo(
    home: Path = typer.Option(Path("arena-server-demo"), "--home", help="its data folder"),
    listen: str = typer.Option("127.0.0.1:8000", "--listen", help="HOST:PORT to serve on"),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    games: int | None = typer.Option(
        None, "--games", min=1, help="stop after this many ladder games"
    ),
    bots: list[str] = typer.Option(
        [], "--bot", "-b", help="reference bots entered (default: random, greedy, search, mcts)"
    ),
) -> None:
    """A local contest server with the reference bots as participants playing the ladder:
    what to run first. Prints the URL and an organiser's login.

    Example: [bold]azul-arena server demo[/] then open http://127.0.0.1:8000/
    """
    from referee import builtin_bots

    unknown = [b for b in bots if b not in builtin_bots()]
    if unknown:
        fail(f"unknown reference bot(s) {', '.join(unknown)}; known: {', '.join(builtin_bots())}")
    _setup(home, make_key=True)
    _check_key()
    from tournaments.server.runtime import (
        DEMO_BOTS,
        create_organiser,
        migrate,
        seed_reference_bots,
    )

    migrate()
    _contest_options(None, None, 0.2 if not _has_games() else None)
    _, password = create_organiser("organiser")
    added = seed_reference_bots(tuple(bots) or DEMO_BOTS)
    if added:
        console.print(
            f"reference bots entered: {', '.join(added)} (validated first, then they play)",
            highlight=False,
        )
    if password:
        console.print(
            f"organiser login: [bold]organiser[/] / [bold]{password}[/] (shown once)",
            highlight=False,
        )
    _run(listen, concurrency, isolation, True, games, banner="Azul Arena contest server demo: ")


def _has_games() -> bool:
    from tournaments.server.ladder.models import Game

    return Game.objects.exists()


@server_app.command("bench")
def server_bench(
    games: int = typer.Option(200, "--games", min=1, help="games measured on each side"),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1),
    entries: int = typer.Option(16, "--entries", min=2, help="participants (random bots)"),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        metavar="postgresql://...",
        help="an empty database to run the ladder on (default: a fresh SQLite file); compare "
        "PostgreSQL with SQLite through each run's ratio to bench tournament",
    ),
    both: bool = typer.Option(
        False,
        "--both",
        help="SQLite and PostgreSQL in one run, one after the other, and their ratio; "
        "PostgreSQL: --database-url, else a throwaway server started here (initdb, pg_ctl)",
    ),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Ladder throughput: games/s of the ladder worker on ENTRIES participants' random bots
    (matchmaking, database, ratings included) beside `bench tournament` on as many random bots,
    in the same run. A benchmark that prints its figures, not a test.

    Example: [bold]azul-arena server bench --entries 16 --games 200 --concurrency 2[/]
    (PostgreSQL against SQLite: [bold]azul-arena server bench --both --json[/])
    """
    import tempfile

    level = check_isolation(isolation)
    if both:
        _bench_both(games, concurrency, entries, level, database_url, as_json)
        return
    with tempfile.TemporaryDirectory(prefix="azul-ladder-bench-") as tmp:
        if database_url:
            os.environ["DATABASE_URL"] = database_url
        else:
            os.environ.pop("DATABASE_URL", None)
        _setup(Path(tmp))
        from tournaments.server.ladder.bench import run_ladder_bench

        result = run_ladder_bench(games, concurrency, entries, level)
        from django.db import connection

        result["database"] = connection.vendor
    if as_json:
        print_json(result)
        return
    console.print(_bench_line(result, entries, concurrency), highlight=False)


def _bench_line(result: dict[str, Any], entries: int, concurrency: int) -> str:
    return (
        f"ladder ({result['database']}): {result['ladder_games_per_s']:.1f} games/s "
        f"({result['games']} games, {entries} participants, concurrency "
        f"{concurrency}, isolation {result['isolation']}); bench tournament: "
        f"{result['tournament_games_per_s']:.1f} games/s; ratio "
        f"{result['ratio']:.2f}"
    )


def _bench_both(
    games: int,
    concurrency: int,
    entries: int,
    isolation: str | None,
    database_url: str | None,
    as_json: bool,
) -> None:
    """Each half in a process of its own (Django is configured once per process)."""
    import contextlib
    import json
    import subprocess
    import sys

    from tournaments.server import postgres

    def half(url: str | None) -> dict[str, Any]:
        env = dict(os.environ)
        env.pop("DATABASE_URL", None)
        command = [sys.executable, "-m", "tournaments.cli", "server", "bench", "--json"]
        command += ["--games", str(games), "-c", str(concurrency), "--entries", str(entries)]
        command += ["--isolation", str(isolation)] if isolation else []
        command += ["--database-url", url] if url else []
        run = subprocess.run(command, capture_output=True, text=True, env=env)
        if run.returncode != 0:
            fail(
                f"the {'PostgreSQL' if url else 'SQLite'} half failed: "
                f"{run.stderr.strip()[-2000:]}",
                Exit.FAILED,
            )
        return dict(json.loads(run.stdout))

    if database_url is None and postgres.missing():
        fail(f"--both needs a PostgreSQL server: give --database-url, or: {postgres.missing()}")
    with contextlib.ExitStack() as stack:
        # PostgreSQL as a department runs it: fsync on (not the tests' -F).
        url = database_url or stack.enter_context(postgres.server(durable=True))
        sqlite_half = half(None)
        postgresql_half = half(url)
    speed = postgresql_half["ladder_games_per_s"] / sqlite_half["ladder_games_per_s"]
    # Each half's ratio to bench tournament, run beside it, takes out the machine's load as
    # it was during that half.
    normalised = postgresql_half["ratio"] / sqlite_half["ratio"] if sqlite_half["ratio"] else 0.0
    result = {
        "sqlite": sqlite_half,
        "postgresql": postgresql_half,
        "postgresql_over_sqlite": speed,
        "postgresql_over_sqlite_normalised": normalised,
        "postgresql_server": "given" if database_url else "throwaway (initdb, pg_ctl)",
    }
    if as_json:
        print_json(result)
        return
    console.print(_bench_line(sqlite_half, entries, concurrency), highlight=False)
    console.print(_bench_line(postgresql_half, entries, concurrency), highlight=False)
    console.print(
        f"PostgreSQL / SQLite: {speed:.2f} (each against its bench tournament: {normalised:.2f})",
        highlight=False,
    )


@server_app.command("bench-upload")
def server_bench_upload(
    participants: int = typer.Option(
        50, "--participants", min=2, help="random bots already on the ladder"
    ),
    uploads: int = typer.Option(5, "--uploads", min=1, help="newcomers, one after the other"),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Time from upload to a new version's first ranked game (validation included), with
    PARTICIPANTS random bots on the ladder: p50 and p95 over UPLOADS newcomers.

    Example: [bold]azul-arena server bench-upload --participants 50 --uploads 5[/]
    """
    import tempfile

    level = check_isolation(isolation)
    with tempfile.TemporaryDirectory(prefix="azul-upload-bench-") as tmp:
        os.environ.pop("DATABASE_URL", None)
        _setup(Path(tmp))
        from tournaments.server.ladder.bench import run_upload_bench

        result = run_upload_bench(participants, uploads, concurrency, level)
    if as_json:
        print_json(result)
        return
    console.print(
        f"upload to first ranked game, {participants} participants on the ladder: "
        f"p50 {result['p50_s']:.1f} s, p95 {result['p95_s']:.1f} s over "
        f"{result['uploads']} uploads (validation {result['validation_s_mean']:.1f} s "
        f"of it on average)",
        highlight=False,
    )


@server_app.command("bench-pages")
def server_bench_pages(
    participants: int = typer.Option(300, "--participants", min=2),
    games: int = typer.Option(100_000, "--games", min=1, help="finished games in the database"),
    rounds: int = typer.Option(60, "--rounds", min=1, help="requests per page"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Render times (p50, p95) of the leaderboard and of participants' pages on a database of
    PARTICIPANTS participants and GAMES finished games, built for the run (no bot plays).

    Example: [bold]azul-arena server bench-pages --participants 300 --games 100000[/]
    """
    import tempfile

    with tempfile.TemporaryDirectory(prefix="azul-page-bench-") as tmp:
        os.environ.pop("DATABASE_URL", None)
        _setup(Path(tmp))
        from tournaments.server.web.bench import run_page_bench

        result = run_page_bench(participants, games, rounds)
    if as_json:
        print_json(result)
        return
    console.print(
        f"{participants} participants, {games} games (built in {result['build_s']:.0f} s)",
        highlight=False,
    )
    for page in ("leaderboard", "participant"):
        t = result[page]
        console.print(
            f"  {page}: p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms, max "
            f"{t['max_ms']:.1f} ms ({t['requests']} requests)",
            highlight=False,
        )


# -- the participant's commands --------------------------------------------------------------
def _client_call(fn: Any, *args: Any) -> Any:
    from tournaments.server.client import ClientError

    try:
        return fn(*args)
    except ClientError as exc:
        fail(str(exc), Exit.FAILED)


@app.command("login")
def login(
    server: str = typer.Option(..., "--server", help=SERVER_HELP),
    user: str | None = typer.Option(None, "--user", "-u", help="your login (default: asked)"),
    password_stdin: bool = typer.Option(
        False, "--password-stdin", help="read the password from stdin (scripts)"
    ),
) -> None:
    """Log in to a contest server: an API token is made for this machine and kept in your
    config folder (readable by you only); `submit` uses it. Revoke it on the server's tokens
    page.

    Example: [bold]azul-arena login --server http://localhost:8000 -u alice[/]
    """
    import sys

    from tournaments.server import client

    user = user or input("user: ")
    password = sys.stdin.readline().rstrip("\n") if password_stdin else getpass.getpass()
    reply = _client_call(client.login, server, user, password)
    console.print(
        f"logged in to {client.normal(server)} as {reply['user']}"
        + (f" (participant {reply['participant']})" if reply.get("participant") else ""),
        highlight=False,
    )


@app.command("submit")
def submit(
    path: Path = typer.Argument(..., help="the bot's folder, its bot.py, or a .zip/.tar.gz"),
    server: str = typer.Option(..., "--server", help=SERVER_HELP),
    participant: str | None = typer.Option(
        None, "--participant", help="the team to submit for (default: yours)"
    ),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Submit a new version of your bot (a folder is packed as .tar.gz; .git and caches are
    left out). It is validated on the server before it plays.

    Example: [bold]azul-arena submit ./mybot --server http://localhost:8000[/]
    """
    from tournaments.server import client

    if not path.exists():
        fail(f"{path} does not exist")
    reply = _client_call(client.submit, server, path, participant)
    if as_json:
        print_json(reply)
        return
    console.print(
        f"version {reply['version']} of {reply['participant']} received "
        f"({reply['size']} bytes, sha256 {reply['sha256'][:12]}); validation "
        f"follows: {reply['url']}",
        highlight=False,
    )


@app.command("challenge")
def challenge(
    opponents: list[str] = typer.Argument(
        ..., help="the opponents' participant names (players per game - 1 of them)"
    ),
    server: str = typer.Option(..., "--server", help=SERVER_HELP),
    participant: str | None = typer.Option(
        None, "--participant", help="the team asking (default: yours)"
    ),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Ask for an unranked game of your active version against the opponents named: the ladder
    plays it next; it never changes a rating. The contest sets how many a day (its quota).

    Example: [bold]azul-arena challenge staff-greedy --server http://localhost:8000[/]
    """
    from tournaments.server import client

    reply = _client_call(client.challenge, server, opponents, participant)
    if as_json:
        print_json(reply)
        return
    console.print(
        f"challenge of {reply['participant']} against {', '.join(reply['opponents'])} "
        f"scheduled as game {reply['game']} (unranked; "
        f"{reply['challenges_left_today']} left today): {reply['url']}",
        highlight=False,
    )


@app.command("submissions")
def submissions(
    server: str = typer.Option(..., "--server", help=SERVER_HELP),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Your versions on a server: validation state and why a version failed.

    Example: [bold]azul-arena submissions --server http://localhost:8000[/]
    """
    from tournaments.server import client

    reply = _client_call(client.versions, server)
    if as_json:
        print_json(reply)
        return
    from rich.table import Table

    table = Table(title=f"{reply['participant']} on {client.normal(server)}")
    for col in ("version", "uploaded", "state", "reason"):
        table.add_column(col, overflow="fold")
    for v in reply["versions"]:
        table.add_row(
            str(v["version"]), v["uploaded"][:19], v["state"], v["reason"] or v["suspended"]
        )
    console.print(table)


@app.command("logs")
def logs(
    game: int = typer.Argument(..., help="the game's number (its page is /games/GAME/)"),
    server: str = typer.Option(..., "--server", help=SERVER_HELP),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Your bot's log in a ladder game: the last lines it wrote in that game (stdout and
    stderr as the referee captured them). Only your own seats (organisers: every seat).

    Example: [bold]azul-arena logs 1234 --server http://localhost:8000[/]
    """
    from tournaments.server import client

    reply = _client_call(client.logs, server, game)
    if as_json:
        print_json(reply)
        return
    for seat in reply["seats"]:
        console.rule(f"game {game}, seat {seat['seat']}: {seat['version']} ({seat['termination']})")
        console.print(seat["log"] or "(empty)", highlight=False, markup=False)


# -- contests: a course's term or a competition's season (docs/course.md) ----------------------

contest_app = typer.Typer(
    help="Contests: dates, deadline, extensions, the final tournament (docs/course.md).",
    no_args_is_help=True,
)
server_app.add_typer(contest_app, name="contest")
WHEN_HELP = "a date and time in UTC, e.g. 2026-12-01T17:00"
BUILD_TIMEOUT_HELP = (
    "seconds a version's build may take at most, whatever its bot.toml asks (its validation "
    "fails past it)"
)


def _contest(slug: str) -> Any:
    from tournaments.server.contests.models import Contest

    found = Contest.objects.filter(slug=slug).first()
    if found is None:
        known = ", ".join(s for s in Contest.objects.values_list("slug", flat=True) if s)
        fail(f"no contest {slug!r}; contests: {known or 'none'} (server contest create)")
    return found


def _when(text: str | None, what: str) -> Any:
    from datetime import UTC, datetime

    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        fail(f"{what} {text!r} is not a date and time like 2026-12-01T17:00")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _about(contest: Any) -> dict[str, Any]:
    return {
        "contest": contest.label,
        "name": contest.name,
        "state": contest.state,
        "ruleset": contest.ruleset,
        "options": contest.options(),
        "players": contest.players,
        "time_per_move": contest.time_per_move,
        "build_timeout": contest.build_timeout,
        "isolation": contest.isolation or None,
        "visibility": contest.visibility,
        **{
            k: (getattr(contest, k).isoformat() if getattr(contest, k) else None)
            for k in ("opens", "deadline", "closes")
        },
        "participants": contest.participants.filter(staff_bot=False).count(),
        "staff_bots": sorted(
            contest.participants.filter(staff_bot=True).values_list("name", flat=True)
        ),
        "handed_in": contest.handins.count(),
        "extensions": [
            {
                "team": e.participant.name,
                "until": e.deadline.isoformat(),
                "reason": e.reason,
                "granted_by": e.granted_by,
            }
            for e in contest.extensions.select_related("participant")
        ],
        "transitions": [
            {"from": t.before, "to": t.after, "at": t.at.isoformat(), "by": t.by}
            for t in contest.transitions.all()
        ],
    }


def _show(contest: Any, as_json: bool) -> None:
    about = _about(contest)
    if as_json:
        print_json(about)
        return
    for key, value in about.items():
        console.print(f"{key}: {value}", highlight=False, markup=False)


@contest_app.command("create")
def contest_create(
    slug: str = typer.Argument(..., help="its short name: letters, digits, - and _"),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    name: str | None = typer.Option(None, "--name", help="its title on the pages"),
    ruleset: str = typer.Option("azul", "--ruleset", "-r"),
    players: int = typer.Option(2, "--players", min=2, max=4),
    time_per_move: float = typer.Option(1.0, "--time-per-move", "-t", min=0.01),
    build_timeout: int = typer.Option(120, "--build-timeout", min=1, help=BUILD_TIMEOUT_HELP),
    option: list[str] = typer.Option([], "--option", help=OPTION_HELP),
    wild: str | None = typer.Option(None, WILD_ORDER_ALIAS, help=WILD_ORDER_HELP),
    isolation: str = typer.Option("", "--isolation", help=ISOLATION_HELP),
    opens: str | None = typer.Option(None, "--opens", help=f"draft until then; {WHEN_HELP}"),
    deadline: str | None = typer.Option(None, "--deadline", help=f"submissions end; {WHEN_HELP}"),
    closes: str | None = typer.Option(
        None, "--closes", help=f"results published (after the final); {WHEN_HELP}"
    ),
    hidden: bool = typer.Option(
        False, "--hidden", help="standings hidden from participants until the contest is closed"
    ),
    min_games: int = typer.Option(
        30, "--final-min-games", min=1, help="final on a large field: games per entry at least"
    ),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Create a contest (draft until --opens, or open at once when no date is given).

    Example: [bold]azul-arena server contest create comp-2026 --deadline 2026-12-01T17:00[/]
    """
    _setup(home)
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_slug

    from tournaments.server.contests.models import Contest
    from tournaments.server.runtime import migrate

    migrate()
    try:
        validate_slug(slug)
    except ValidationError:
        fail(f"contest name {slug!r} must be letters, digits, - and _")
    if Contest.objects.filter(slug=slug).exists():
        fail(f"a contest {slug!r} exists already (server contest show {slug})")
    contest = Contest(
        slug=slug,
        name=name or slug,
        ruleset=ruleset,
        players=players,
        time_per_move=time_per_move,
        build_timeout=build_timeout,
        ruleset_options=parse_options(option, wild),
        isolation=isolation,
        opens=_when(opens, "--opens"),
        deadline=_when(deadline, "--deadline"),
        closes=_when(closes, "--closes"),
        final_min_games=min_games,
        visibility=Contest.HIDDEN if hidden else Contest.PUBLIC,
        state=Contest.DRAFT if opens else Contest.OPEN,
    )
    try:
        contest.clean()
    except ValidationError as exc:
        fail("; ".join(exc.messages))
    contest.save()
    _show(contest, as_json)


@contest_app.command("show")
def contest_show(
    slug: str = typer.Argument(...),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """A contest's settings, dates, state, hand-ins and extensions.

    Example: [bold]azul-arena server contest show comp-2026 --json[/]
    """
    _setup(home)
    from tournaments.server.ladder.lifecycle import advance

    _show(
        advance(_contest(slug), by=f"organiser {getpass.getuser()} (server contest show)"), as_json
    )


@contest_app.command("set")
def contest_set(
    slug: str = typer.Argument(...),
    state: str | None = typer.Argument(None, help="open, frozen, final or closed (forward only)"),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    build_timeout: int | None = typer.Option(
        None, "--build-timeout", min=1, help=BUILD_TIMEOUT_HELP
    ),
) -> None:
    """Move a contest on by hand: open it, freeze it now (the versions active now are handed
    in), or close it (results published); or change its --build-timeout.

    Example: [bold]azul-arena server contest set comp-2026 frozen[/],
    [bold]azul-arena server contest set comp-2026 --build-timeout 300[/]
    """
    _setup(home)
    from tournaments.server.ladder.lifecycle import LifecycleError, set_state

    contest = _contest(slug)
    if state is None and build_timeout is None:
        fail("say what to set: a state (open, frozen, final, closed) or --build-timeout SECONDS")
    if build_timeout is not None:
        contest.build_timeout = build_timeout
        contest.save(update_fields=["build_timeout"])
        console.print(f"{slug}: a build may take {build_timeout} s", highlight=False)
    if state is None:
        return
    try:
        set_state(contest, state, f"organiser {getpass.getuser()} (server contest set)")
    except LifecycleError as exc:
        fail(str(exc))
    console.print(f"{slug} is {contest.state}", highlight=False)


@contest_app.command("extend")
def contest_extend(
    slug: str = typer.Argument(...),
    team: str = typer.Argument(..., help="the participant (team) given more time"),
    until: str = typer.Option(..., "--until", help=f"its own deadline; {WHEN_HELP}"),
    reason: str = typer.Option("", "--reason", help="recorded with it"),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
) -> None:
    """Give one team a later deadline (a special consideration), recorded with its reason.

    Example: [bold]azul-arena server contest extend comp-2026 team-7 --until 2026-12-03T17:00[/]
    """
    _setup(home)
    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.lifecycle import LifecycleError, extend

    contest = _contest(slug)
    who = Participant.objects.filter(name=team, contest=contest).first()
    if who is None:
        fail(f"no team {team!r} in {slug}")
    try:
        extend(contest, who, _when(until, "--until"), reason, getpass.getuser())
    except LifecycleError as exc:
        fail(str(exc))
    console.print(f"{team} may submit to {slug} until {until} UTC", highlight=False)


@contest_app.command("staff-bot")
def contest_staff_bot(
    slug: str = typer.Argument(...),
    name: str = typer.Argument(..., help="its name on the leaderboard, e.g. staff-greedy"),
    bot: str | None = typer.Option(
        None, "--reference", help="a reference bot: random, greedy, search, mcts"
    ),
    archive: Path | None = typer.Option(None, "--archive", help="or a bot's .zip/.tar.gz"),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
) -> None:
    """Enter a staff bot: a bar of known strength the grades are measured against.

    Example: [bold]azul-arena server contest staff-bot comp-2026 staff-greedy --reference greedy[/]
    """
    _setup(home)
    from tournaments.server.runtime import add_staff_bot, reference_archive
    from tournaments.server.submissions.intake import SubmissionError

    if (bot is None) == (archive is None):
        fail("give one of --reference NAME or --archive PATH")
    contest = _contest(slug)
    try:
        data = reference_archive(bot) if bot is not None else archive.read_bytes()  # type: ignore[union-attr]
        version = add_staff_bot(contest, name, data)
    except (KeyError, OSError, ValueError, SubmissionError) as exc:
        fail(f"cannot enter {name}: {exc}")
    console.print(
        f"staff bot {version.label} entered in {slug}; the ladder worker validates it",
        highlight=False,
    )


@contest_app.command("final")
def contest_final(
    slug: str = typer.Argument(...),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1),
    by: str | None = typer.Option(
        None, "--by", hidden=True, help="who starts it, as its transition records (a worker)"
    ),
    take_over: bool = typer.Option(
        False,
        "--take-over/--no-take-over",
        help="take over a final whose player on another machine is stopped (this machine "
        "cannot see it: stop it first, or two processes play the final)",
    ),
) -> None:
    """Play the final tournament of a frozen contest: the versions handed in and the staff bots,
    fresh ratings (a round-robin on a small field, adaptive pairing on a large one). Run it
    again to resume it. A ladder worker starts it by itself once the contest is frozen and
    every extension has passed; this command is for doing it by hand (or resuming it).

    Example: [bold]azul-arena server contest final comp-2026 --concurrency 4[/]
    """
    _setup(home)
    from tournaments.server.ladder.final import final_path, run_final
    from tournaments.server.ladder.lifecycle import LifecycleError

    contest = _contest(slug)
    try:
        summary = run_final(
            contest,
            concurrency,
            console,
            by=by or f"organiser {getpass.getuser()} (server contest final)",
            take_over=take_over,
        )
    except LifecycleError as exc:
        fail(str(exc))
    console.print(
        f"final of {slug}: {summary.played} games played, {summary.failed} failed; "
        f"its database: {final_path(contest)}",
        highlight=False,
    )
    if summary.failed or summary.aborted:
        raise typer.Exit(int(Exit.FAILED))


@server_app.command("import-class")
def import_class(
    csv_file: Path = typer.Argument(..., help="columns login,name,email,team (a header first)"),
    contest: str | None = typer.Option(None, "--contest", help="default: the default contest"),
    links: Path = typer.Option(
        Path("signup-links.csv"), "--links", help="where the one-time sign-up links are written"
    ),
    base_url: str = typer.Option(
        "http://localhost:8000", "--base-url", help="the server's address as the students reach it"
    ),
    send: bool = typer.Option(
        False,
        "--send",
        help="also mail each link (Django's email backend: AZUL_ARENA_EMAIL_*, docs/deployment.md)",
    ),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Create the accounts and teams of a class; import again to update (no duplicates). A bad
    row is reported with its line number and nothing is applied.

    Example: [bold]azul-arena server import-class class.csv --contest comp-2026 --links links.csv[/]
    """
    _setup(home)
    _check_key()  # the sign-up links are signed with it
    from tournaments.server.contests import classlist
    from tournaments.server.contests.models import Contest
    from tournaments.server.runtime import migrate

    migrate()
    target = _contest(contest) if contest is not None else Contest.current()
    try:
        students = classlist.read(csv_file)
        result = classlist.apply(students, target, base_url)
    except classlist.ClassListError as exc:
        fail(f"{exc}; nothing was imported")
    classlist.write_links(result, students, links)
    try:
        sent = classlist.send(result, students, target.name) if send else 0
    except OSError as exc:  # smtplib's errors included: no mail server, refused, bad login
        fail(
            f"the accounts are made and the links are in {links}, but mailing them failed "
            f"({exc}); set AZUL_ARENA_EMAIL_HOST and the other AZUL_ARENA_EMAIL_* "
            f"(docs/deployment.md), or send the links yourself",
            Exit.FAILED,
        )
    summary = {
        "created": len(result.created),
        "updated": len(result.updated),
        "teams_created": len(result.teams_created),
        "links": len(result.links),
        "links_file": str(links),
        "mailed": sent,
    }
    if as_json:
        print_json(summary)
        return
    console.print(
        f"{summary['created']} accounts created, {summary['updated']} updated, "
        f"{summary['teams_created']} teams created; {summary['links']} sign-up links "
        f"in {links}" + (f", {sent} mailed" if send else ""),
        highlight=False,
    )


@server_app.command("export-results")
def export_results(
    contest: str = typer.Argument(..., help="the contest"),
    output: Path = typer.Option(Path("."), "--output", "-o", help="a folder"),
    home: Path | None = typer.Option(None, "--home", help=HOME_HELP),
) -> None:
    """The final standings as CSV (rank, team, members, handed-in hash, mu, sigma, games, mean
    score, win rate against each staff bot with its 95% interval) and the whole contest as
    one archive (the final's database for `tournament report`, every game's record for
    `replay verify`).

    Example: [bold]azul-arena server export-results comp-2026 -o results/[/]
    """
    _setup(home)
    from tournaments.server.ladder.export import standings_csv, write_archive
    from tournaments.server.ladder.lifecycle import LifecycleError

    found = _contest(contest)
    output.mkdir(parents=True, exist_ok=True)
    try:
        (output / f"{contest}-standings.csv").write_text(standings_csv(found))
        games = write_archive(found, output / f"{contest}-games.tar.gz")
    except LifecycleError as exc:
        fail(str(exc))
    console.print(
        f"{output / (contest + '-standings.csv')}; {games} game records in "
        f"{output / (contest + '-games.tar.gz')}",
        highlight=False,
    )


@server_app.command("bench-final")
def server_bench_final(
    teams: int = typer.Option(300, "--teams", min=2),
    staff: int = typer.Option(3, "--staff", min=0, help="staff bots in the final"),
    players: int = typer.Option(2, "--players", min=2, max=4),
    max_per_entry: int = typer.Option(
        150, "--max-games-per-entry", min=1, help="how far the simulated finals go"
    ),
    target: float = typer.Option(
        0.9, "--target", min=0.0, max=1.0, help="Kendall tau between two independent finals"
    ),
    real_games: int = typer.Option(
        60, "--real-games", min=2, help="games of the real final that is timed"
    ),
    concurrency: int = typer.Option(2, "--concurrency", "-c", min=1),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """A contest final's size: the games two independent finals of a simulated field need
    to agree (Kendall tau >= TARGET, the simulation of `bench schedule`), and the wall time
    per 1,000 games of a real final (random bots) on this machine. Prints its figures.

    Example: [bold]azul-arena server bench-final --teams 300 --staff 3 --json[/]
    """
    from tournaments.server.ladder.bench import run_final_bench

    level = check_isolation(isolation)
    result = run_final_bench(
        teams, staff, players, max_per_entry, target, real_games, concurrency, level
    )
    if as_json:
        print_json(result)
        return
    reach = result["games_for_target"]
    console.print(
        f"final of {result['entries']} entries ({teams} teams, {staff} staff bots), "
        f"{players}-player games: "
        + (
            f"{reach} games ({result['games_per_entry_for_target']:.0f} per entry) for two "
            f"finals to agree at tau >= {target}"
            if reach
            else f"tau {target} not reached in {max_per_entry} games per entry"
        )
        + f"; a real final here: {result['wall_s_per_1000_games']:.0f} s per 1,000 games "
        f"(random bots, isolation {result['real_isolation']}, concurrency {concurrency})",
        highlight=False,
    )
