"""`azul-arena server init / run / ladder / demo`: an organiser's server on one machine (its
database, its web site, its ladder worker)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tournaments.commands.common import (
    ISOLATION_HELP,
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    ClusterSecurity,
    Exit,
    check_isolation,
    check_ruleset,
    console,
    err_console,
    fail,
    parse_options,
)
from tournaments.commands.groups import server_app
from tournaments.commands.server.home import HOME_HELP, refusals, setup

if TYPE_CHECKING:
    from tournaments.server.worker.loop import WorkerStats

Home = Annotated[Path | None, typer.Option("--home", help=HOME_HELP)]
Isolation = Annotated[str | None, typer.Option("--isolation", help=ISOLATION_HELP)]
Listen = Annotated[str, typer.Option("--listen", help="HOST:PORT to serve on")]


@server_app.command("init")
def server_init(
    home: Home = None,
    organiser: Annotated[str, typer.Option("--organiser", help="the organiser's login")] = (
        "organiser"
    ),
    password: Annotated[
        str | None, typer.Option("--password", help="default: a random one, printed once")
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", "-r", help="the contest's ruleset")
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", min=2, max=4, help="seats per ladder game")
    ] = None,
    time_per_move: Annotated[float | None, typer.Option("--time-per-move", "-t", min=0.01)] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
) -> None:
    """Create (or upgrade) the server's database and an organiser account, and say how to log
    in. Running it again changes only what it is given.

    Example: [bold]azul-arena server init --home ./contest --ruleset azul --players 2[/]
    """
    if ruleset is not None:  # a bad ruleset or option is refused before anything is made
        check_ruleset(ruleset, players, option or [], wild)
    folder = setup(home, make_key=True, migrate=True)
    from tournaments.server.runtime import initialise

    with refusals():
        made = initialise(
            organiser, password, ruleset, players, time_per_move, parse_options(option or [], wild)
        )
    console.print(f"server data in {folder}", highlight=False)
    if made.password is not None:
        console.print(
            f"organiser account: [bold]{organiser}[/] password [bold]{made.password}[/] "
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
    home: Home = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-c", min=1, help="games at once")
    ] = 2,
    isolation: Isolation = None,
    games: Annotated[
        int | None,
        typer.Option("--games", min=1, help="stop after this many games (default: never)"),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="tls://HOST:8786",
            help="play the games on this Dask scheduler's workers "
            "(docs/cluster.md); validation stays here",
        ),
    ] = None,
    cluster_security: ClusterSecurity = None,
    contest: Annotated[
        str | None,
        typer.Option("--contest", help="the contest it serves (default: the default contest)"),
    ] = None,
) -> None:
    """The ladder worker alone: validates new versions and plays ranked games until stopped
    (SIGTERM or Ctrl-C; a SIGKILL loses nothing either: the next start replays the games in
    flight, and nothing is rated twice).

    Example: [bold]azul-arena server ladder --home ./contest --concurrency 4[/]
    """
    level = check_isolation(isolation)
    setup(home, migrate=True)
    err_console.print(
        f"ladder worker started (isolation: {level}, {concurrency} games at once)", highlight=False
    )
    if contest is not None:
        from tournaments.server.contests.services import find_contest

        with refusals():
            find_contest(contest)
    stats = _ladder(concurrency, level, games, cluster, contest, cluster_security)
    err_console.print(_stopped(stats), highlight=False)


def _stopped(stats: WorkerStats) -> str:
    return (
        f"ladder stopped: {stats.played} games played, {stats.validated} "
        f"versions validated, {stats.infrastructure_failures} infrastructure "
        f"failures (not rated)"
        + (
            f", {stats.recorded_elsewhere} played but recorded by another worker first"
            if stats.recorded_elsewhere
            else ""
        )
    )


def _ladder(
    concurrency: int,
    isolation: str | None,
    games: int | None,
    cluster: str | None = None,
    contest: str | None = None,
    cluster_security: Path | None = None,
) -> WorkerStats:
    """Run the ladder worker until it stops; a cluster that cannot be used is an error."""
    from referee import run_loop
    from tournaments.commands.common import cluster_options
    from tournaments.domain.cluster import ClusterError
    from tournaments.server.worker.loop import LadderWorker

    def told(game_id: int) -> None:
        err_console.print(f"game {game_id} played", highlight=False)

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
    except ClusterError as exc:  # a cluster that cannot be used at all, said in a sentence
        fail(str(exc), Exit.FAILED)


def _serve(
    listen: str,
    concurrency: int,
    isolation: str | None,
    ladder: bool,
    games: int | None,
    banner: str = "",
    web_workers: int = 2,
    contest: str | None = None,
) -> None:
    """The web server (gunicorn, a process of its own) and, with `ladder`, the ladder worker in
    this process (serving `contest`), until SIGTERM or Ctrl-C, or until the web server dies
    (an error)."""
    from tournaments.server.runtime import ListenError, serve

    level = check_isolation(isolation) if ladder else None
    try:
        web = serve(listen, web_workers)
    except (ListenError, OSError) as exc:
        fail(f"cannot listen on {listen}: {exc}")
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
            _ladder(concurrency, level, games, contest=contest)
        else:
            _wait_for_a_stop()
    finally:
        web.stop()
    if died:
        fail(f"the web server (gunicorn) ended with status {died[0]}: its error is above")


def _wait_for_a_stop() -> None:
    """Until SIGTERM or Ctrl-C."""
    import signal
    import threading

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass


@server_app.command("run")
def server_run(
    home: Home = None,
    listen: Listen = "127.0.0.1:8000",
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-c", min=1, help="ladder games at once")
    ] = 2,
    isolation: Isolation = None,
    ladder: Annotated[
        bool, typer.Option("--ladder/--no-ladder", help="run the ladder worker in this process too")
    ] = True,
    web_workers: Annotated[
        int,
        typer.Option(
            "--web-workers", min=1, help="the web server's processes (gunicorn, 16 threads each)"
        ),
    ] = 2,
    contest: Annotated[
        str | None,
        typer.Option(
            "--contest",
            help="the contest of the front page, the sign-up and the ladder worker (default: "
            "$AZUL_ARENA_CONTEST, else the one open contest, else the default contest)",
        ),
    ] = None,
) -> None:
    """The web site and the ladder worker, one command on one machine.

    Example: [bold]azul-arena server run --home ./contest --contest comp-2026 --listen
    0.0.0.0:8000[/] (outside localhost, set AZUL_ARENA_ALLOWED_HOSTS to the names it is
    reached by)
    """
    if contest is not None:
        # Before Django starts here and in the web server's processes: their front page.
        os.environ["AZUL_ARENA_CONTEST"] = contest
    _check_listen(listen)  # before the folder is looked at: the argument is what is wrong
    setup(home, check_key=True, migrate=True)
    served = _front_contest(contest)
    _serve(listen, concurrency, isolation, ladder, None, web_workers=web_workers, contest=served)


def _check_listen(listen: str) -> None:
    from tournaments.server.runtime import ListenError, parse_listen

    try:
        parse_listen(listen)
    except ListenError as exc:
        fail(str(exc))


def _front_contest(slug: str | None) -> str | None:
    """The slug of the contest the site shows (and its worker serves): `slug`, checked, else
    the front page's (`Contest.front`); None for the default contest."""
    from tournaments.server.contests.models import Contest
    from tournaments.server.contests.services import find_contest

    with refusals():
        contest = find_contest(slug) if slug is not None else Contest.front()
    return None if contest.pk == Contest.current().pk else contest.slug


@server_app.command("demo")
def server_demo(
    home: Annotated[Path, typer.Option("--home", help="its data folder")] = Path(
        "arena-server-demo"
    ),
    listen: Listen = "127.0.0.1:8000",
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", min=1)] = 2,
    isolation: Isolation = None,
    games: Annotated[
        int | None, typer.Option("--games", min=1, help="stop after this many ladder games")
    ] = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bot", "-b", help="reference bots entered (default: random, greedy, search, mcts)"
        ),
    ] = None,
) -> None:
    """A local contest server with the reference bots as participants playing the ladder:
    what to run first. Prints the URL and an organiser's login.

    Example: [bold]azul-arena server demo[/] then open http://127.0.0.1:8000/
    """
    from referee import builtin_bots

    unknown = [b for b in bots or [] if b not in builtin_bots()]
    if unknown:
        fail(f"unknown reference bot(s) {', '.join(unknown)}; known: {', '.join(builtin_bots())}")
    setup(home, make_key=True, check_key=True, migrate=True)
    from tournaments.server.runtime import prepare_demo

    with refusals():
        made = prepare_demo(tuple(bots or ()))
    if made.entered:
        console.print(
            f"reference bots entered: {', '.join(made.entered)} (validated first, then they play)",
            highlight=False,
        )
    if made.password:
        console.print(
            f"organiser login: [bold]organiser[/] / [bold]{made.password}[/] (shown once)",
            highlight=False,
        )
    _serve(listen, concurrency, isolation, True, games, banner="Azul Arena contest server demo: ")
