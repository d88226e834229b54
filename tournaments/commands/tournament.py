"""`azul-arena tournament ...`: run (resumably), show, export, report, and the entries of a
growing field (add-entry, remove-entry). Each verb checks its options and hands over to the
tournament domain (tournaments/domain/tournament.py, store.py, report.py)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from tournaments.commands.common import (
    DATA_DIR,
    OPTION_HELP,
    WILD_ORDER_ALIAS,
    WILD_ORDER_HELP,
    ClusterSecurity,
    Exit,
    check_clock,
    check_fault_policy,
    check_isolation,
    check_plays,
    check_ruleset,
    cluster_options,
    console,
    err_console,
    fail,
    isolation_line,
    leave_interrupted,
    open_in_browser,
    print_json,
    reading_store,
    running_store,
    write_page,
)
from tournaments.commands.groups import tournament_app
from tournaments.commands.match_options import match_options
from tournaments.domain.settings import MatchSettings

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions
    from tournaments.domain.entries import Entry, RunOptions
    from tournaments.domain.runner import RunSummary
    from tournaments.domain.schedule import ScheduledGame
    from tournaments.domain.store import Store
    from tournaments.domain.tournament import TournamentConfig

DEFAULT_DB = DATA_DIR / "tournament.db"
_GROWING = ("adaptive", "swiss")  # the schedules an entry may join or leave while they run


def _open_existing(db: Path):  # type: ignore[no-untyped-def]
    from tournaments.domain.store import Store, StoreError

    try:
        return Store.open(db, create=False)
    except StoreError as exc:
        fail(str(exc))


def describe_rules(config: dict[str, Any]) -> str:
    """A stored tournament's rules in words: "pavilion, wild order GOPYBR, 2 players, 1 s a move
    (cpu clock)"."""
    words = [str(config.get("ruleset", "azul"))]
    words += [
        f"{key.replace('_', ' ')} {value}"
        for key, value in sorted((config.get("options") or {}).items())
    ]
    if config.get("players"):
        words.append(f"{config['players']} players")
    if config.get("time_per_move"):
        # Stored before the clock could be chosen: the wall clock.
        words.append(f"{config['time_per_move']:g} s a move ({config.get('clock', 'wall')} clock)")
    return ", ".join(words)


def print_report(
    db_store,
    json_out: bool,
    crosstable: bool = True,  # type: ignore[no-untyped-def]
    title: str = "Leaderboard",
    isolation: bool = False,
) -> None:
    """Print the leaderboard (and crosstable) recomputed from the store; `isolation`: and how
    its last run isolated the bots (`tournament show`; `run` prints it as it starts)."""
    from tournaments.domain.report import build_report
    from tournaments.terminal.render import CROSSTABLE_MAX, crosstable_table, leaderboard_table

    report = build_report(db_store)
    changes = db_store.entry_changes()
    # Off a terminal rich assumes 80 columns; a log file is better served by unwrapped rows.
    out = console if console.is_terminal else Console(width=160)
    # How the bots of the last run were isolated, with what it could not promise there.
    line = db_store.get_meta("isolation_line") if isolation else None
    if json_out:
        data = report.to_json()
        data["clock"] = (db_store.config() or {}).get("clock", "wall")
        if changes:
            data["entry_changes"] = changes
        if line:
            data["isolation"] = line.removeprefix("isolation: ")
        print_json(data)
        return
    out.print(
        leaderboard_table(
            report.leaderboard,
            title=f"{title} ({describe_rules(db_store.config() or {})}; "
            f"{report.games_done}/{report.games_total} games)",
        )
    )
    if report.skipped:
        console.print(
            f"[yellow]{len(report.skipped)} game(s) could not be rated "
            f"(numerical trouble): {', '.join(report.skipped[:10])}[/]"
        )
    if line:
        out.print(line, markup=False, highlight=False)
    for change in changes:
        verb = "joined" if change["action"] == "add" else "removed (its games stay)"
        line = f"{change['entry']} {verb} after {change['games_done']} games"
        if change.get("withdrawn"):
            line += f"; {change['withdrawn']} of its games not played yet were withdrawn"
        out.print(line, markup=False, highlight=False)
    if crosstable and 1 < len(report.entries) <= CROSSTABLE_MAX:
        out.print(crosstable_table(report.entries, report.crosstable))
    elif crosstable and len(report.entries) > CROSSTABLE_MAX:
        console.print(
            f"[dim]crosstable not shown for {len(report.entries)} entries; "
            "see `tournament show --json` or `tournament export`[/]"
        )


def _check_schedule(
    schedule: str,
    games: int | None,
    rounds: int | None,
    min_games: int | None,
    gauntlet: str | None,
    games_per_pairing: int | None,
) -> None:
    """Refuse options that do not go with the chosen --schedule."""
    from tournaments.domain.rounds import SCHEDULES

    if schedule not in SCHEDULES:
        fail(f"--schedule {schedule!r} is not one of: {', '.join(SCHEDULES)}")
    if schedule == "adaptive" and games is None:
        fail("--schedule adaptive needs --games N (the games to play in all)")
    if schedule == "swiss" and rounds is None:
        fail("--schedule swiss needs --rounds R")
    if games is not None and schedule != "adaptive":
        fail(
            "--games goes with --schedule adaptive (a round-robin's size follows from its "
            "entries and --games-per-pairing)"
        )
    if rounds is not None and schedule != "swiss":
        fail("--rounds goes with --schedule swiss")
    if min_games is not None and schedule != "adaptive":
        fail("--min-games goes with --schedule adaptive")
    if schedule != "round-robin" and gauntlet is not None:
        fail(f"--gauntlet is a schedule of its own; it does not go with --schedule {schedule}")
    if schedule != "round-robin" and games_per_pairing is not None:
        fail(
            f"--games-per-pairing does not go with --schedule {schedule}: each group plays "
            "one seat rotation, and the schedule decides who meets again"
        )


@tournament_app.command("run")
@match_options(
    "ruleset", "time_per_move", "time_bank", "fault_policy", "clock", "isolation", "ponder",
    "bot_env", "anonymous",
)  # fmt: skip
def run(
    entries: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="ENTRY...",
            help="Bots: a built-in name, path/bot.py[:Class], a bot folder "
            "(its bot.toml), a command line in quotes, or NAME=any of "
            "these.",
        ),
    ] = None,
    entries_file: Annotated[
        Path | None,
        typer.Option(
            "--entries",
            help=r"TOML file listing the entries (\[\[entry]] name + "
            "builtin|file|folder|command).",
        ),
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    wild: Annotated[str | None, typer.Option(WILD_ORDER_ALIAS, help=WILD_ORDER_HELP)] = None,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players per game: 2, 3 or 4.")] = 2,
    games_per_pairing: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Games per pair/group (default: the number of players, one full seat "
            "rotation). Use a multiple of --players so seat advantage cancels.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Tournament seed: decides every deal (default: random, stored in the database)."
        ),
    ] = None,
    gauntlet: Annotated[
        str | None,
        typer.Option(
            "--gauntlet",
            metavar="ENTRY",
            help="Play ENTRY against the field instead of a round-robin.",
        ),
    ] = None,
    schedule: Annotated[
        str,
        typer.Option(
            help="round-robin (every pairing), adaptive (--games N, pairings chosen from the "
            "ratings so far) or swiss (--rounds R)."
        ),
    ] = "round-robin",
    games: Annotated[
        int | None,
        typer.Option("--games", min=1, help="Adaptive: games in all (a multiple of --players)."),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds", min=1, help="Swiss: rounds (every entry plays one seat rotation a round)."
        ),
    ] = None,
    min_games: Annotated[
        int | None,
        typer.Option(
            "--min-games",
            min=0,
            help="Adaptive: games every entry plays at least (default: "
            "--players, one seat rotation).",
        ),
    ] = None,
    concurrency: Annotated[
        int,
        typer.Option(
            min=1,
            help="Games at once (default: the number of cores; with --workers N, shared "
            "among them; with --cluster the workers' threads decide).",
        ),
    ] = os.cpu_count() or 1,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="tls://HOST:8786",
            help="Play the games on this Dask scheduler's workers (docs/cluster.md).",
        ),
    ] = None,
    cluster_security: ClusterSecurity = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            metavar="N",
            help="Play the games on a Dask LocalCluster of N worker processes.",
        ),
    ] = None,
    db: Annotated[
        Path,
        typer.Option(
            help="Tournament database (SQLite); rerun the same command with it to resume."
        ),
    ] = DEFAULT_DB,
    log_dir: Annotated[
        Path | None, typer.Option(help="Folder for the bots' logs (default: next to the db).")
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the final report as JSON.")
    ] = False,
    plain: Annotated[bool, typer.Option(help="Plain progress lines even on a terminal.")] = False,
    memory: Annotated[
        str | None,
        typer.Option(
            help="Memory limit per bot unless its entry says (e.g. 512M, 2G; default 2G)."
        ),
    ] = None,
    *,
    match: MatchSettings,
) -> None:
    """Run a tournament (round-robin, gauntlet, adaptive or Swiss), resumably, and print the
    leaderboard.

    Example: [bold]azul-arena tournament run random greedy mybot=./mybot.py --seed 1[/]

    On a Dask cluster: [bold]azul-arena tournament run --entries class.toml --cluster
    tcp://head:8786[/] (or [bold]--workers 4[/] for worker processes on this machine).

    A class of 300: [bold]azul-arena tournament run --entries class.toml --schedule adaptive
    --games 6000 --concurrency 2[/]

    Running the same command again resumes: finished games are never played twice.
    Exit codes: 0 all games played, 1 some games failed (rerun to retry), 2 bad arguments.
    """
    request = RunRequest(
        entries or [],
        entries_file,
        match,
        option or [],
        wild,
        players,
        games_per_pairing,
        seed,
        gauntlet,
        schedule,
        games,
        rounds,
        min_games,
        memory,
    )
    config = request.config()
    if cluster is not None and workers is not None:
        fail("give --cluster (a running Dask scheduler) or --workers (a local cluster), not both")
    remote = cluster_options(cluster, workers, concurrency, cluster_security)
    out = err_console if json_out else console
    summary = _run_stored(
        db,
        config,
        concurrency,
        out,
        log_dir or db.parent / "logs",
        live=not plain,
        cluster=remote,
        json_out=json_out,
    )
    if summary is not None and (summary.failed or summary.aborted):
        what = [f"{summary.failed} game(s) failed"] if summary.failed else []
        what += [f"stopped: {summary.aborted}"] if summary.aborted else []
        err_console.print(f"[red]{'; '.join(what)}[/]")
        for game_id, error in summary.errors[:5]:
            err_console.print(f"  {game_id}: {error}", markup=False)
        err_console.print("rerun the same command to retry them")
        raise typer.Exit(int(Exit.FAILED))


@dataclass
class RunRequest:
    """What `tournament run` was asked, before anything is written: `config()` checks it once
    and makes the tournament's configuration (or exits 2 saying what is wrong)."""

    entries: list[str]
    entries_file: Path | None
    match: MatchSettings  # as given: the entries file may add to its bot_env and ponder
    option: list[str]  # the ruleset's options, KEY=VALUE
    wild: str | None  # the --wild-order alias
    players: int
    games_per_pairing: int | None
    seed: int | None
    gauntlet: str | None
    schedule: str
    games: int | None
    rounds: int | None
    min_games: int | None
    memory: str | None

    def config(self) -> TournamentConfig:
        from tournaments.domain.tournament import TournamentConfig

        given = self.match
        check_fault_policy(given.fault_policy)
        ruleset_options = check_ruleset(given.ruleset, self.players, self.option, self.wild)
        chosen, options, all_env = self._entries()
        isolation = given.isolation or options.isolation
        check_isolation(isolation)
        if given.clock is not None:
            check_clock(given.clock)
        self._check_schedule(len(chosen), [e.name for e in chosen])
        players, adaptive = self.players, self.schedule == "adaptive"
        match = replace(
            given,
            options=ruleset_options,
            isolation=isolation,
            ponder=given.ponder or bool(options.ponder),
            bot_env=tuple(all_env),
        )
        return TournamentConfig(
            entries=chosen,
            match=match,
            players=players,
            games_per_pairing=self.games_per_pairing or players,
            seed=self.seed,
            gauntlet=self.gauntlet,
            schedule=self.schedule,
            games=self.games,
            rounds=self.rounds,
            min_games=(players if self.min_games is None else self.min_games) if adaptive else None,
        )

    def _entries(self) -> tuple[list[Entry], RunOptions, list[str]]:
        """The entries (arguments and --entries), each launchable and playing the ruleset, the
        file's run-wide options, and every bot's variables."""
        from tournaments.domain.entries import (
            Entry,
            EntryError,
            RunOptions,
            check_entries,
            check_unique,
            load_entries_toml,
            load_run_options,
            parse_entries,
            parse_size,
            resolve_env,
        )

        chosen: list[Entry] = []
        options = RunOptions()
        try:
            if self.entries_file is not None:
                chosen += load_entries_toml(self.entries_file)
                options = load_run_options(self.entries_file)
            chosen += parse_entries(self.entries)
            check_unique(chosen)
            # Every entry must be launchable before anything is written: a typo would otherwise
            # crash every game and stay stored with the schedule.
            check_entries(chosen)
            check_plays([e.spec for e in chosen], self.match.ruleset)
            all_env = [*options.bot_env, *self.match.bot_env]
            resolve_env(all_env)
            if self.memory is not None:
                default_memory = parse_size(self.memory, "--memory")
                chosen = [
                    e if e.memory else Entry(e.name, e.spec, default_memory, e.env) for e in chosen
                ]
        except (EntryError, ValueError) as exc:
            fail(str(exc))
        if len(chosen) < 2:
            fail("give at least two entries (arguments or --entries FILE.toml)")
        return chosen, options, all_env

    def _check_schedule(self, count: int, names: list[str]) -> None:
        from tournaments.domain.schedule import ScheduleError

        _check_schedule(
            self.schedule,
            self.games,
            self.rounds,
            self.min_games,
            self.gauntlet,
            self.games_per_pairing,
        )
        if self.schedule != "round-robin":
            from tournaments.domain.rounds import RoundPlan

            try:  # before the database is touched, like every other check
                RoundPlan(
                    self.schedule,
                    self.players,
                    0,
                    self.games,
                    self.rounds,
                    self.players if self.min_games is None else self.min_games,
                ).check(count)
            except ScheduleError as exc:
                fail(str(exc))
        if self.gauntlet is not None and self.gauntlet not in names:
            fail(f"--gauntlet {self.gauntlet!r} is not one of the entries: " + ", ".join(names))


def _run_stored(
    db: Path,
    config: TournamentConfig,
    concurrency: int,
    out: Console,
    log_dir: Path,
    *,
    live: bool,
    cluster: ClusterOptions | None,
    json_out: bool,
) -> RunSummary | None:
    """Open (or resume) the tournament in `db`, play what is pending, print the report; the
    run's summary (None when nothing was left to play)."""
    from tournaments.domain.schedule import ScheduleError
    from tournaments.domain.tournament import ConfigMismatch
    from tournaments.domain.tournament import prepare as prepare_tournament

    summary = None
    with contextlib.ExitStack() as stack:
        store = running_store(stack, db)
        try:
            with reading_store(db, data_errors=False):
                try:
                    config, pending = prepare_tournament(store, config)
                except (ConfigMismatch, ScheduleError) as exc:
                    fail(str(exc))
                _say_what_runs(out, db, store, config)
                if pending:
                    summary = _play(
                        store,
                        config,
                        pending,
                        concurrency,
                        out,
                        log_dir=log_dir,
                        live=live,
                        cluster=cluster,
                    )
                if summary is not None and summary.interrupted:
                    leave_interrupted(summary.interrupted, db)
                print_report(store, json_out)
        except KeyboardInterrupt:
            leave_interrupted(int(signal.SIGINT), db)
    return summary


def _say_what_runs(out: Console, db: Path, store: Any, config: TournamentConfig) -> None:
    """The run's first lines: what, where, how isolated, which clock (the stored ones, checked
    again on a resume)."""
    done, total = store.counts()
    size = {
        "adaptive": f"{config.games} games, adaptive pairing",
        "swiss": f"{config.rounds} Swiss rounds ({total} games so far)",
    }.get(config.schedule, f"{total} games")
    out.print(
        f"tournament in [bold]{db}[/]: {len(store.entries())} entries, {size}, "
        f"seed {config.seed}" + (f"; resuming, {done} already played" if done else "")
    )
    line = isolation_line(str(config.match.isolation))
    out.print(
        line
        + ("; bots may think on others' time (--ponder)" if config.match.ponder else "")
        + (
            "; bots are told their seats, not whom they play (--anonymous)"
            if config.match.anonymous
            else ""
        ),
        highlight=False,
    )
    check_isolation(config.match.isolation)  # the stored level, on a resume
    out.print(f"clock: {config.match.clock}", highlight=False)
    check_clock(str(config.match.clock))  # the stored clock, on a resume
    store.set_meta("isolation_line", line)  # what `tournament show` repeats


def _play(
    store: Store,
    config: TournamentConfig,
    pending: list[ScheduledGame],
    concurrency: int,
    out: Console,
    *,
    log_dir: Path,
    live: bool,
    cluster: ClusterOptions | None,
) -> RunSummary:
    """The run in this terminal (the live view, SIGINT/SIGTERM, the event loop:
    `play_in_terminal`), with a cluster or an entry that cannot be used as a clear error."""
    from tournaments.domain.cluster import ClusterError
    from tournaments.domain.entries import EntryError
    from tournaments.terminal.running import play_in_terminal

    try:
        return play_in_terminal(
            store, config, pending, concurrency, out, log_dir=log_dir, live=live, cluster=cluster
        )
    except (ClusterError, EntryError) as exc:
        fail(str(exc))
        raise  # unreachable: fail() raises


@tournament_app.command("show")
def show(
    db: Annotated[Path, typer.Option(help="Tournament database.")] = DEFAULT_DB,
    json_out: Annotated[
        bool,
        typer.Option(
            "--json",
            help="JSON: games_total, games_done, leaderboard (best first), crosstable, isolation.",
        ),
    ] = False,
) -> None:
    """Print the leaderboard and crosstable from a tournament database (even a running or
    killed one), and how its last run isolated the bots (with what that level could not
    promise on its machine).

    Example: [bold]azul-arena tournament show --db arena-data/tournament.db --json[/]
    """
    with _open_existing(db) as store, reading_store(db):
        print_report(store, json_out, isolation=True)


@tournament_app.command("export")
def export(
    db: Annotated[Path, typer.Option(help="Tournament database.")] = DEFAULT_DB,
    csv_out: Annotated[
        bool, typer.Option("--csv", help="CSV, one row per seat of every game.")
    ] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="JSON with every game and its replay.")
    ] = False,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
) -> None:
    """Write all games of a tournament as CSV or JSON.

    Example: [bold]azul-arena tournament export --csv -o games.csv[/]
    """
    from tournaments.domain.report import export_csv, export_json

    if csv_out == json_out:
        fail("choose one of --csv or --json")
    if output is not None and output.is_dir():
        fail(f"-o {output} is a directory; give a file name")
    if output is not None and not output.parent.is_dir():
        fail(f"-o {output}: the folder {output.parent} does not exist")
    with _open_existing(db) as store, reading_store(db):
        text = export_csv(store) if csv_out else json.dumps(export_json(store)) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write -o {output}: {exc.strerror or exc}")
        err_console.print(f"wrote {output}")


def _check_growing(store) -> None:  # type: ignore[no-untyped-def]
    """Refuse a tournament whose schedule is fixed from the start."""
    config = store.config() or {}
    schedule = str(config.get("schedule", "round-robin"))
    if schedule not in _GROWING:
        kind = "gauntlet" if config.get("gauntlet") else schedule
        fail(
            f"{store.path} holds a {kind} tournament, whose schedule is fixed from the start; "
            "entries join or leave only adaptive and Swiss tournaments (tournament run "
            "--schedule adaptive or swiss)"
        )


def _change(db: Path, apply: Callable[[Any], object]) -> int:
    """Apply one entry change to the tournament in `db`; return the entries paired from now."""
    from tournaments.domain.store import StoreError

    with _open_existing(db) as store, reading_store(db):
        _check_growing(store)
        try:
            apply(store)
        except StoreError as exc:
            fail(str(exc))
        return len(store.entries()) - len(store.removed_entries())


@tournament_app.command("add-entry")
def add_entry(
    entry: Annotated[
        str,
        typer.Argument(
            metavar="NAME=SPEC",
            help="The new entry: a built-in, path/bot.py[:Class], a bot folder "
            "or a command line, as for tournament run.",
        ),
    ],
    db: Annotated[Path, typer.Option(help="Tournament database (adaptive or Swiss).")] = DEFAULT_DB,
    memory: Annotated[
        str | None,
        typer.Option(
            help="Its memory limit (512M, 2G), as `memory` of an entry in the TOML file (default: "
            "the referee's, 2G)."
        ),
    ] = None,
    env: Annotated[
        list[str] | None,
        typer.Option(
            "--env",
            help="A variable it gets: NAME=VALUE, or NAME (the runner's value); "
            "repeatable, as `env` of an entry in the TOML file.",
        ),
    ] = None,
) -> None:
    """Add a late entry to an adaptive or Swiss tournament, even while it runs: it is paired
    from the next round on (first, until it has its minimum games); nothing is replayed. It
    runs as every entry does: at the tournament's isolation level, with its own limits, its
    folder hidden from the other entries and theirs from it.

    Example: [bold]azul-arena tournament add-entry late=./students/late/bot.py --memory 512M
    --db class.db[/]
    """
    import re

    from tournaments.domain.entries import Entry, EntryError, check_entries, parse_entry, parse_size

    try:
        new = parse_entry(entry)
        check_entries([new])
        for item in env or []:  # a NAME alone takes its value in the runner's environment
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*(=|$)", item):
                raise EntryError(f"--env {item!r} is not NAME or NAME=VALUE")
        new = Entry(
            new.name, new.spec, parse_size(memory, "--memory") if memory else None, tuple(env or ())
        )
    except EntryError as exc:
        fail(str(exc))
    count = _change(db, lambda store: store.add_entry(new))
    console.print(
        f"added [bold]{new.name}[/] ({new.spec}) to {db}: {count} entries are paired "
        "from the next round on"
    )


@tournament_app.command("remove-entry")
def remove_entry(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The entry to retire.")],
    db: Annotated[Path, typer.Option(help="Tournament database (adaptive or Swiss).")] = DEFAULT_DB,
) -> None:
    """Retire an entry of an adaptive or Swiss tournament, even while it runs: its games played
    stay (and count in the ratings), its games not played yet are withdrawn (a game it is
    playing right now is not recorded), and it is paired no more.

    Example: [bold]azul-arena tournament remove-entry bob --db class.db[/]
    """
    withdrawn: list[int] = []
    _change(db, lambda store: withdrawn.append(store.remove_entry(name)))
    console.print(
        f"removed [bold]{name}[/] from {db}: its games played stay, "
        f"{withdrawn[0]} not played yet withdrawn; it is paired no more"
    )


def default_report(db: Path) -> Path:
    """Where the report of `db` goes unless -o says: next to it, <db>-report.html."""
    return db.with_name(f"{db.stem}-report.html")


def write_report(db: Path, output: Path, games: int) -> None:
    """Build the report of `db` (with a progress bar) and write it to `output`."""
    from rich.progress import Progress

    from tournaments.web.report_page import report_html

    with _open_existing(db) as store, reading_store(db):
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task("games", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            text = report_html(store, games, progress)
    write_page(output, text, "the report")


@tournament_app.command("report")
def report(
    db: Annotated[Path, typer.Option(help="Tournament database.")] = DEFAULT_DB,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="The HTML file (default: next to the db, <db>-report.html)."
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(min=0, help="How many games the page carries to watch (the best game first)."),
    ] = 300,
    open_it: Annotated[bool, typer.Option("--open", help="Open it in a browser.")] = False,
) -> None:
    """Write the tournament as one self-contained HTML page: leaderboard with intervals,
    results by seat, crosstable heat map, rating history, faults, and every game to watch.

    Example: [bold]azul-arena tournament report --db arena-data/tournament.db -o report.html[/]
    """
    path = output or default_report(db)
    write_report(db, path, games)
    console.print(f"wrote {path}", highlight=False, soft_wrap=True)
    if open_it:
        open_in_browser(path)
