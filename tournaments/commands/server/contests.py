"""`azul-arena server contest create / show / set / extend / staff-bot / final`, `server
import-class`, `server export-results` and `server prune`: an organiser's contests, a course's
term or a competition's season (docs/course.md). Each verb calls one service of the server's
apps."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tournaments.commands.common import (
    ISOLATION_HELP,
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    ClusterSecurity,
    Exit,
    cluster_options,
    console,
    err_console,
    fail,
    parse_options,
    print_json,
)
from tournaments.commands.groups import Verbs, server_app
from tournaments.commands.server.home import (
    BUILD_TIMEOUT_HELP,
    HOME_HELP,
    WHEN_HELP,
    refusals,
    setup,
    when,
)

if TYPE_CHECKING:
    from tournaments.server.contests.models import Contest

contest_app = Verbs(
    help="Contests: dates, deadline, extensions, the final tournament (docs/course.md).",
    no_args_is_help=True,
)
server_app.add_typer(contest_app, name="contest")

Home = Annotated[Path | None, typer.Option("--home", help=HOME_HELP)]
Slug = Annotated[str, typer.Argument()]
Json = Annotated[bool, typer.Option("--json")]
FINAL_GAMES_HELP = (
    "games per pairing in the final's round-robin (seats rotated on one deal); more games, "
    "narrower win-rate intervals: docs/course.md has a table, `azul-arena bench final` "
    "measures it"
)
FINAL_FORMAT_HELP = (
    "how the final is played: auto (a round-robin on a small field, else adaptive), "
    "round-robin, adaptive, or graded (each team against each staff bot, then among the "
    "teams: a large class's final, its cost linear in the class; docs/course.md)"
)
GRADED_GAMES_HELP = (
    "graded final: games each team plays against each staff bot (3-4 players: each group of "
    "them) on shared deals, seats rotated; a multiple of the players"
)
RANKING_GAMES_HELP = (
    "graded final: games each team then plays against other teams (adaptive pairing; 0: none)"
)


KEEP_LOGS_HELP = (
    "days a game's bot logs are kept once it has ended (0: for ever); each team's latest 20 "
    "games keep theirs, the games' records stay; the ladder worker deletes older ones hourly"
)
SHARE_HELP = (
    "KIND=N, repeatable: the workers' slot time for a kind of work (ranked, challenge, "
    "analysis, test) while several wait; default ranked=5 and 1 for each other (0: only "
    "slots nothing else wants)"
)


def _shares(values: list[str]) -> dict[str, int]:
    """--share KIND=N options as a dict; exit 2 on a malformed one."""
    shares = {}
    for value in values:
        kind, _, weight = value.partition("=")
        if not weight.strip().isdigit():
            fail(f"--share {value!r}: write KIND=N, e.g. --share test=2")
        shares[kind.strip()] = int(weight)
    return shares


def _options_text(options: dict[str, str]) -> str:
    return "".join(f" {key}={value}" for key, value in options.items())


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
    signup: Annotated[
        str,
        typer.Option(
            "--signup",
            help="who may make an account on the site: open (anyone), code (with "
            "--signup-code) or closed (only the class list's, for a course)",
        ),
    ] = "open",
    signup_code: Annotated[
        str, typer.Option("--signup-code", help="the invitation code of --signup code")
    ] = "",
    min_games: Annotated[
        int,
        typer.Option(
            "--final-min-games", min=1, help="final on a large field: games per entry at least"
        ),
    ] = 30,
    final_games: Annotated[
        int, typer.Option("--final-games-per-pairing", min=1, help=FINAL_GAMES_HELP)
    ] = 2,
    final_format: Annotated[str, typer.Option("--final-format", help=FINAL_FORMAT_HELP)] = "auto",
    graded_games: Annotated[
        int, typer.Option("--final-graded-games", min=1, help=GRADED_GAMES_HELP)
    ] = 12,
    ranking_games: Annotated[
        int, typer.Option("--final-ranking-games", min=0, help=RANKING_GAMES_HELP)
    ] = 10,
    keep_logs_days: Annotated[
        int, typer.Option("--keep-logs-days", min=0, help=KEEP_LOGS_HELP)
    ] = 0,
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
        final_games_per_pairing=final_games,
        final_format=final_format,
        final_graded_games=graded_games,
        final_ranking_games=ranking_games,
        hidden=hidden,
        signup=signup,
        signup_code=signup_code,
        keep_logs_days=keep_logs_days,
    )
    with refusals():
        contest = create_contest(slug, settings)
    _show(about(contest), as_json)
    _staff_bots_wanted(contest)


def _final_text(contest: Contest) -> str:
    """How the final of `contest` is played, in a few words."""
    if contest.final_format != contest.GRADED:
        return contest.final_format
    return (
        f"graded: {contest.final_graded_games} games against each staff bot, then "
        f"{contest.final_ranking_games} games a team among the teams"
    )


def _staff_bots_wanted(contest: Contest) -> None:
    """Say, when the final of `contest` is graded, that it wants staff bots it lacks yet (they
    may be entered until the final starts, which refuses without them)."""
    need = contest.players - 1
    have = contest.participants.filter(staff_bot=True).count()
    if contest.final_format == contest.GRADED and have < need:
        err_console.print(
            f"note: the final of {contest.label} is graded and it has {have} staff bots; "
            f"enter at least {need} before it starts: server contest staff-bot "
            f"{contest.label} NAME --reference greedy",
            highlight=False,
        )


@contest_app.command("show")
def contest_show(slug: Slug, home: Home = None, as_json: Json = False) -> None:
    """A contest's settings, dates, state, extensions, where its final is, and each team's
    hand-in (version, hash, when it was sent, why). It changes nothing.

    Example: [bold]azul-arena server contest show comp-2026 --json[/]
    """
    setup(home)
    from tournaments.server.worker.services import show_contest

    with refusals():
        about = show_contest(slug)
    if as_json:
        print_json(about)
        return
    from tournaments.server.worker.backlog import describe
    from tournaments.server.worker.shares import shares_text

    handins, final, work = about.pop("handins"), about.pop("final"), about.pop("work")
    shares = {"shares": shares_text(work["shares"]), "waiting": describe(work)}
    _show(about | {"final": final["describe"]} | shares, False)
    _handins_table(handins)


def _handins_table(handins: list[dict[str, Any]]) -> None:
    """Each team's hand-in (version, hash, when sent, why), as a table."""
    from rich.table import Table

    if not handins:
        return
    table = Table(title="hand-ins", title_justify="left")
    for column in ("team", "version", "sha256", "sent (UTC)", "why"):
        table.add_column(column, overflow="fold")
    for h in handins:
        table.add_row(
            h["team"] + (" (staff)" if h["staff_bot"] else ""),
            f"v{h['version']}" if h["version"] else "-",
            (h["sha256"] or "-")[:12],
            (h["sent"] or "-")[:19].replace("T", " "),
            h["why"],
        )
    console.print(table)


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
    final_games: Annotated[
        int | None, typer.Option("--final-games-per-pairing", min=1, help=FINAL_GAMES_HELP)
    ] = None,
    signup: Annotated[
        str | None,
        typer.Option(
            "--signup",
            help="who may make an account from now on: open, code (with --signup-code) or "
            "closed (accounts already made stay)",
        ),
    ] = None,
    signup_code: Annotated[
        str | None,
        typer.Option("--signup-code", help="a new invitation code (sign-up by code)"),
    ] = None,
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", "-r", help="from the next game scheduled")
    ] = None,
    time_per_move: Annotated[
        float | None,
        typer.Option("--time-per-move", "-t", min=0.01, help="from the next game scheduled"),
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
    isolation: Annotated[
        str | None,
        typer.Option("--isolation", help="none, process or sandbox ('' : the strongest)"),
    ] = None,
    share: Annotated[list[str] | None, typer.Option("--share", help=SHARE_HELP)] = None,
    final_format: Annotated[
        str | None, typer.Option("--final-format", help=FINAL_FORMAT_HELP)
    ] = None,
    graded_games: Annotated[
        int | None, typer.Option("--final-graded-games", min=1, help=GRADED_GAMES_HELP)
    ] = None,
    ranking_games: Annotated[
        int | None, typer.Option("--final-ranking-games", min=0, help=RANKING_GAMES_HELP)
    ] = None,
    keep_logs_days: Annotated[
        int | None, typer.Option("--keep-logs-days", min=0, help=KEEP_LOGS_HELP)
    ] = None,
) -> None:
    """Move a contest on by hand: open it, freeze it now (what each team sent so far is handed
    in), or close it (results published, once the final is done); or change its
    --build-timeout, --final-games-per-pairing, --final-format (with --final-graded-games,
    --final-ranking-games), --signup, what its games are played with
    (--ruleset, --time-per-move, --option, --isolation: the workers play the next game they
    schedule with it, no restart), its workers' --share of slot time for a kind of work or how
    long its bot logs are kept (--keep-logs-days). A refusal changes nothing.

    Example: [bold]azul-arena server contest set comp-2026 frozen[/],
    [bold]azul-arena server contest set comp-2026 --time-per-move 0.5[/],
    [bold]azul-arena server contest set comp-2026 --share test=2 --share analysis=2[/],
    [bold]azul-arena server contest set comp-2026 --final-format graded --final-graded-games 10[/]
    """
    setup(home)
    from tournaments.server.contests.models import Contest
    from tournaments.server.contests.services import FinalChange, GameChange
    from tournaments.server.worker.services import change_contest

    by = f"organiser {getpass.getuser()} (server contest set)"
    options = parse_options(option or [], wild) if option or wild else None
    game = GameChange(ruleset, time_per_move, options, isolation)
    final = FinalChange(final_format, graded_games, ranking_games)
    with refusals():
        contest = change_contest(
            slug,
            state,
            build_timeout,
            by,
            final_games,
            signup=signup,
            signup_code=signup_code,
            game=game,
            shares=_shares(share) if share else None,
            final=final,
            keep_logs_days=keep_logs_days,
        )
    if game.asked():
        console.print(
            f"{slug}: {contest.ruleset}{_options_text(contest.options())}, "
            f"{contest.time_per_move} s a move, from the next game its workers schedule",
            highlight=False,
        )
    if share:
        from tournaments.server.worker.shares import shares_text

        console.print(f"{slug}: shares of slot time {shares_text(contest.shares())}")
    if signup is not None or signup_code is not None:
        console.print(f"{slug}: sign-up is {contest.signup}", highlight=False)
        front = Contest.front()  # the contest whose sign-up rules the site's sign-up page
        if front.pk != contest.pk:
            console.print(
                f"note: the site's sign-up page follows its front contest, {front.slug}, not "
                f"{slug}: serve it with `server run --contest {slug}` (AZUL_ARENA_CONTEST)",
                highlight=False,
            )
    if final_games is not None:
        console.print(f"{slug}: its final plays {final_games} games per pairing", highlight=False)
    if final.asked():
        console.print(f"{slug}: its final is {_final_text(contest)}", highlight=False)
        _staff_bots_wanted(contest)
    if build_timeout is not None:
        console.print(f"{slug}: a build may take {build_timeout} s", highlight=False)
    if keep_logs_days is not None:
        kept = f"{keep_logs_days} days after a game" if keep_logs_days else "for ever"
        console.print(f"{slug}: its bots' logs are kept {kept}", highlight=False)
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
    from tournaments.server.worker.services import extend_deadline

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
        typer.Option(
            "--reference",
            help="a reference bot: random, greedy, search, mcts, expert, with its parameters "
            "if any (expert:net=0, mcts:iterations=400)",
        ),
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
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="tls://HOST:8786",
            help="play its games on this Dask scheduler's workers (docs/cluster.md)",
        ),
    ] = None,
    cluster_security: ClusterSecurity = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", min=1, metavar="N", help="play its games on N local worker processes"
        ),
    ] = None,
) -> None:
    """Play the final tournament of a frozen contest: the versions handed in and the staff bots,
    fresh ratings, in the contest's --final-format (auto: a round-robin on a small field,
    adaptive pairing on a large one; or graded: each team against each staff bot, then among
    the teams). Run it again to resume it. A ladder worker starts it by itself once the
    contest is frozen and every extension has passed; this command is for doing it by hand (or
    resuming it).

    Example: [bold]azul-arena server contest final comp-2026 --concurrency 4[/], on a
    cluster: [bold]... --cluster tls://head:8786 --cluster-security certs/client[/]
    """
    if cluster is not None and workers is not None:
        fail("give --cluster (a running Dask scheduler) or --workers (a local cluster), not both")
    options = cluster_options(cluster, workers, concurrency, cluster_security)
    setup(home)
    from tournaments.domain.cluster import ClusterError
    from tournaments.server.worker.services import play_final
    from tournaments.terminal.live import LiveProgress
    from tournaments.terminal.running import until_signal

    by = by or f"organiser {getpass.getuser()} (server contest final)"
    with refusals():
        try:
            final = play_final(
                slug,
                concurrency,
                by,
                take_over,
                LiveProgress(console, plain=True),
                options,
                guard=until_signal,
            )
        except ClusterError as exc:  # a cluster that cannot be used at all, in a sentence
            fail(str(exc), Exit.FAILED)
    summary = final.summary
    if summary is None:
        console.print(
            f"the final of {slug} is done already ({final.games} games); its results: "
            f"azul-arena server export-results {slug} (and close it to publish them: "
            f"azul-arena server contest set {slug} closed)",
            highlight=False,
        )
        return
    console.print(
        f"final of {slug}: {summary.played} games played, {summary.failed} failed; "
        f"its results: azul-arena server export-results {slug}",
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
    partial: Annotated[
        bool,
        typer.Option(
            "--partial",
            help="before the final is done: the results so far, in files named -partial",
        ),
    ] = False,
    ladder_games: Annotated[
        bool,
        typer.Option(
            "--ladder-games", help="add every ladder game's and challenge's record (thousands)"
        ),
    ] = False,
    home: Home = None,
    as_json: Json = False,
) -> None:
    """The final standings as CSV (rank, team, members, the version handed in with its hash and
    why, mu, sigma, games, mean score, faults, win rate against each staff bot with its 95%
    interval; the teams that handed in nothing too) and the final as one archive (its database
    for `tournament report`, its games' records for `replay verify`). Refused (exit 1) until
    the final is done, unless --partial.

    Example: [bold]azul-arena server export-results comp-2026 -o results/[/]
    """
    setup(home)
    from tournaments.server.worker.services import FinalNotDone
    from tournaments.server.worker.services import export_results as service

    with refusals():
        try:
            done = service(contest, output, partial, ladder_games)
        except FinalNotDone as exc:  # not a usage error: asked too early
            fail(str(exc), Exit.FAILED)
    if as_json:
        print_json(
            {
                "standings": str(done.standings),
                "archive": str(done.archive),
                "games": done.games,
                "partial": done.partial,
            }
        )
        return
    if done.partial:
        err_console.print(
            "[bold yellow]warning:[/] the final is not done: these results are partial",
            highlight=False,
        )
    console.print(f"{done.standings}; {done.games} game records in {done.archive}", highlight=False)


@server_app.command("prune")
def prune(
    contest: Annotated[
        str | None,
        typer.Argument(help="the contest (default: each contest that does not keep logs for ever)"),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="say what would be deleted, delete nothing")
    ] = False,
    home: Home = None,
    as_json: Json = False,
) -> None:
    """Delete the bot logs a contest no longer keeps (its --keep-logs-days): the seat logs of
    games that ended longer ago, but for each team's latest 20 games (its page links them),
    and the bots' process logs not written to since. The games' records stay, and a game's
    page says its logs are no longer kept. The ladder worker does it every hour; this, now.

    Example: [bold]azul-arena server prune comp-2026 --dry-run[/]
    """
    setup(home)
    from tournaments.server.ladder.retention import prune_contests

    with refusals():
        done = prune_contests(contest, dry_run)
    if as_json:
        print_json({"contests": [p.as_json() for p in done]})
        return
    if not done:
        console.print(
            "every contest keeps its logs for ever (server contest set SLUG --keep-logs-days N)",
            highlight=False,
        )
    verb = "would delete" if dry_run else "deleted"
    for p in done:
        if not p.keep_logs_days:
            console.print(
                f"{p.contest} keeps its logs for ever: nothing to delete (server contest set "
                f"{p.contest} --keep-logs-days N)",
                highlight=False,
            )
            continue
        console.print(
            f"{p.contest} (logs kept {p.keep_logs_days} days): {verb} the seat logs of "
            f"{p.games} games ({p.seat_logs} files) and {p.process_logs} process logs, "
            f"{p.bytes / 2**20:.1f} MiB",
            highlight=False,
        )
