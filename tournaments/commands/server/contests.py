"""`azul-arena server contest create / show / set / extend / staff-bot / final`, `server
import-class` and `server export-results`: an organiser's contests, a course's term or a
competition's season (docs/course.md). Each verb calls one service of the server's apps."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Annotated, Any

import typer

from tournaments.commands.common import (
    ISOLATION_HELP,
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    Exit,
    console,
    parse_options,
    print_json,
)
from tournaments.commands.groups import server_app
from tournaments.commands.server.home import (
    BUILD_TIMEOUT_HELP,
    HOME_HELP,
    WHEN_HELP,
    refusals,
    setup,
    when,
)

contest_app = typer.Typer(
    help="Contests: dates, deadline, extensions, the final tournament (docs/course.md).",
    no_args_is_help=True,
)
server_app.add_typer(contest_app, name="contest")

Home = Annotated[Path | None, typer.Option("--home", help=HOME_HELP)]
Slug = Annotated[str, typer.Argument()]
Json = Annotated[bool, typer.Option("--json")]


def _show(about: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(about)
        return
    for key, value in about.items():
        console.print(f"{key}: {value}", highlight=False, markup=False)


@contest_app.command("create")
def contest_create(
    slug: Annotated[str, typer.Argument(help="its short name: letters, digits, - and _")],
    home: Home = None,
    name: Annotated[str | None, typer.Option("--name", help="its title on the pages")] = None,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r")] = "azul",
    players: Annotated[int, typer.Option("--players", min=2, max=4)] = 2,
    time_per_move: Annotated[float, typer.Option("--time-per-move", "-t", min=0.01)] = 1.0,
    build_timeout: Annotated[
        int, typer.Option("--build-timeout", min=1, help=BUILD_TIMEOUT_HELP)
    ] = 120,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
    isolation: Annotated[str, typer.Option("--isolation", help=ISOLATION_HELP)] = "",
    opens: Annotated[
        str | None, typer.Option("--opens", help=f"draft until then; {WHEN_HELP}")
    ] = None,
    deadline: Annotated[
        str | None, typer.Option("--deadline", help=f"submissions end; {WHEN_HELP}")
    ] = None,
    closes: Annotated[
        str | None,
        typer.Option("--closes", help=f"results published (after the final); {WHEN_HELP}"),
    ] = None,
    hidden: Annotated[
        bool,
        typer.Option(
            "--hidden", help="standings hidden from participants until the contest is closed"
        ),
    ] = False,
    min_games: Annotated[
        int,
        typer.Option(
            "--final-min-games", min=1, help="final on a large field: games per entry at least"
        ),
    ] = 30,
    as_json: Json = False,
) -> None:
    """Create a contest (draft until --opens, or open at once when no date is given).

    Example: [bold]azul-arena server contest create comp-2026 --deadline 2026-12-01T17:00[/]
    """
    setup(home, migrate=True)
    from tournaments.server.contests.services import ContestSettings, about, create_contest

    settings = ContestSettings(
        name=name or "",
        ruleset=ruleset,
        players=players,
        time_per_move=time_per_move,
        build_timeout=build_timeout,
        ruleset_options=parse_options(option or [], wild),
        isolation=isolation,
        opens=when(opens, "--opens"),
        deadline=when(deadline, "--deadline"),
        closes=when(closes, "--closes"),
        final_min_games=min_games,
        hidden=hidden,
    )
    with refusals():
        contest = create_contest(slug, settings)
    _show(about(contest), as_json)


@contest_app.command("show")
def contest_show(slug: Slug, home: Home = None, as_json: Json = False) -> None:
    """A contest's settings, dates, state, hand-ins and extensions.

    Example: [bold]azul-arena server contest show comp-2026 --json[/]
    """
    setup(home)
    from tournaments.server.ladder.services import show_contest

    with refusals():
        about = show_contest(slug, by=f"organiser {getpass.getuser()} (server contest show)")
    _show(about, as_json)


@contest_app.command("set")
def contest_set(
    slug: Slug,
    state: Annotated[
        str | None, typer.Argument(help="open, frozen, final or closed (forward only)")
    ] = None,
    home: Home = None,
    build_timeout: Annotated[
        int | None, typer.Option("--build-timeout", min=1, help=BUILD_TIMEOUT_HELP)
    ] = None,
) -> None:
    """Move a contest on by hand: open it, freeze it now (the versions active now are handed
    in), or close it (results published); or change its --build-timeout. A refusal changes
    nothing.

    Example: [bold]azul-arena server contest set comp-2026 frozen[/],
    [bold]azul-arena server contest set comp-2026 --build-timeout 300[/]
    """
    setup(home)
    from tournaments.server.ladder.services import change_contest

    by = f"organiser {getpass.getuser()} (server contest set)"
    with refusals():
        contest = change_contest(slug, state, build_timeout, by)
    if build_timeout is not None:
        console.print(f"{slug}: a build may take {build_timeout} s", highlight=False)
    if state is not None:
        console.print(f"{slug} is {contest.state}", highlight=False)


@contest_app.command("extend")
def contest_extend(
    slug: Slug,
    team: Annotated[str, typer.Argument(help="the participant (team) given more time")],
    until: Annotated[str, typer.Option("--until", help=f"its own deadline; {WHEN_HELP}")],
    reason: Annotated[str, typer.Option("--reason", help="recorded with it")] = "",
    home: Home = None,
) -> None:
    """Give one team a later deadline (a special consideration), recorded with its reason.

    Example: [bold]azul-arena server contest extend comp-2026 team-7 --until 2026-12-03T17:00[/]
    """
    setup(home)
    from tournaments.server.ladder.services import extend_deadline

    moment = when(until, "--until")
    assert moment is not None  # --until is required
    with refusals():
        extend_deadline(slug, team, moment, reason, getpass.getuser())
    console.print(f"{team} may submit to {slug} until {until} UTC", highlight=False)


@contest_app.command("staff-bot")
def contest_staff_bot(
    slug: Slug,
    name: Annotated[str, typer.Argument(help="its name on the leaderboard, e.g. staff-greedy")],
    bot: Annotated[
        str | None,
        typer.Option("--reference", help="a reference bot: random, greedy, search, mcts"),
    ] = None,
    archive: Annotated[
        Path | None, typer.Option("--archive", help="or a bot's .zip/.tar.gz")
    ] = None,
    home: Home = None,
) -> None:
    """Enter a staff bot: a bar of known strength the grades are measured against.

    Example: [bold]azul-arena server contest staff-bot comp-2026 staff-greedy --reference greedy[/]
    """
    setup(home)
    from tournaments.server.submissions.services import enter_staff_bot

    with refusals():
        version = enter_staff_bot(slug, name, bot, archive)
    console.print(
        f"staff bot {version.label} entered in {slug}; the ladder worker validates it",
        highlight=False,
    )


@contest_app.command("final")
def contest_final(
    slug: Slug,
    home: Home = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", min=1)] = 2,
    by: Annotated[
        str | None,
        typer.Option(
            "--by", hidden=True, help="who starts it, as its transition records (a worker)"
        ),
    ] = None,
    take_over: Annotated[
        bool,
        typer.Option(
            "--take-over/--no-take-over",
            help="take over a final whose player on another machine is stopped (this machine "
            "cannot see it: stop it first, or two processes play the final)",
        ),
    ] = False,
) -> None:
    """Play the final tournament of a frozen contest: the versions handed in and the staff bots,
    fresh ratings (a round-robin on a small field, adaptive pairing on a large one). Run it
    again to resume it. A ladder worker starts it by itself once the contest is frozen and
    every extension has passed; this command is for doing it by hand (or resuming it).

    Example: [bold]azul-arena server contest final comp-2026 --concurrency 4[/]
    """
    setup(home)
    from tournaments.server.ladder.services import play_final

    by = by or f"organiser {getpass.getuser()} (server contest final)"
    with refusals():
        final = play_final(slug, concurrency, by, take_over, console)
    summary = final.summary
    console.print(
        f"final of {slug}: {summary.played} games played, {summary.failed} failed; "
        f"its database: {final.database}",
        highlight=False,
    )
    if summary.failed or summary.aborted:
        raise typer.Exit(int(Exit.FAILED))


@server_app.command("import-class")
def import_class(
    csv_file: Annotated[
        Path, typer.Argument(help="columns login,name,email,team (a header first)")
    ],
    contest: Annotated[
        str | None, typer.Option("--contest", help="default: the default contest")
    ] = None,
    links: Annotated[
        Path, typer.Option("--links", help="where the one-time sign-up links are written")
    ] = Path("signup-links.csv"),
    base_url: Annotated[
        str,
        typer.Option("--base-url", help="the server's address as the students reach it"),
    ] = "http://localhost:8000",
    send: Annotated[
        bool,
        typer.Option(
            "--send",
            help="also mail each link (Django's email backend: AZUL_ARENA_EMAIL_*, "
            "docs/deployment.md)",
        ),
    ] = False,
    home: Home = None,
    as_json: Json = False,
) -> None:
    """Create the accounts and teams of a class; import again to update (no duplicates). A bad
    row is reported with its line number and nothing is applied.

    Example: [bold]azul-arena server import-class class.csv --contest comp-2026 --links links.csv[/]
    """
    setup(home, check_key=True, migrate=True)  # the sign-up links are signed with the key
    from tournaments.server.contests.services import import_class as service

    with refusals():
        done = service(csv_file, contest, links, base_url, send)
    if as_json:
        print_json(done.as_json())
        return
    console.print(
        f"{done.created} accounts created, {done.updated} updated, "
        f"{done.teams_created} teams created; {done.links} sign-up links "
        f"in {links}" + (f", {done.mailed} mailed" if send else ""),
        highlight=False,
    )


@server_app.command("export-results")
def export_results(
    contest: Annotated[str, typer.Argument(help="the contest")],
    output: Annotated[Path, typer.Option("--output", "-o", help="a folder")] = Path("."),
    home: Home = None,
) -> None:
    """The final standings as CSV (rank, team, members, handed-in hash, mu, sigma, games, mean
    score, win rate against each staff bot with its 95% interval) and the whole contest as
    one archive (the final's database for `tournament report`, every game's record for
    `replay verify`).

    Example: [bold]azul-arena server export-results comp-2026 -o results/[/]
    """
    setup(home)
    from tournaments.server.ladder.services import export_results as service

    with refusals():
        done = service(contest, output)
    console.print(f"{done.standings}; {done.games} game records in {done.archive}", highlight=False)
