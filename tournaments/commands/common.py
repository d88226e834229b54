"""Small things every command shares: the consoles, JSON output and exit codes."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions
    from tournaments.domain.store import Store

# Off a terminal rich assumes 80 columns: piped output (a log file, `| less`, a CI page) had its
# paths broken in two and its table cells cut with "…". Piped, a line is as wide as this; COLUMNS
# still decides when it is set, and a terminal keeps its own width.
PIPED_WIDTH = 200


def _console(stderr: bool = False) -> Console:
    probe = Console(stderr=stderr)
    if probe.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return probe
    return Console(stderr=stderr, width=PIPED_WIDTH)


console = _console()
err_console = _console(stderr=True)


class Exit(IntEnum):
    """Exit codes with a meaning a script can rely on."""

    OK = 0
    FAILED = 1  # the command ran and found a problem (illegal move in a record, a failed check)
    USAGE = 2  # bad arguments or unreadable input (typer uses 2 for usage errors too)


def print_json(obj: Any) -> None:
    """One JSON object on one line on stdout, for scripts."""
    print(json.dumps(obj, separators=(",", ":")), flush=True)


def fail(message: str, code: Exit = Exit.USAGE) -> NoReturn:
    """Print a clear error on stderr and leave with `code` (it never returns)."""
    import typer
    from rich.markup import escape

    # The message is plain text: "[[entry]]" or a path with brackets must print as written.
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(int(code))


# Where the commands write unless told otherwise: one folder in the working directory for the
# databases, the game records and the bots' logs. Records of `match` and `play` went to
# ./azul-arena-replays/ before: those files still open by their path.
DATA_DIR = Path("arena-data")
RECORDS_DIR = DATA_DIR / "replays"
LOGS_DIR = DATA_DIR / "logs"


def shell_command(program: str) -> str:
    """How to run `program` of this installation (azul-arena, python) from the user's shell, for
    a hint to print: its bare name when PATH finds this installation's own (an activated venv,
    an install on PATH), else its path (.venv/bin/azul-arena under the working folder)."""
    import shutil
    import sys

    bin_dir = Path(sys.executable).parent  # not resolved: a venv's python is a symlink
    own = bin_dir / program
    if not own.exists():  # not installed beside this Python: the name is all there is
        return program
    found = shutil.which(program)
    if found is not None and (
        Path(found).parent.resolve() == bin_dir.resolve()
        # A console script linked onto PATH (pipx); a symlinked python would name another
        # environment's.
        or (not own.is_symlink() and Path(found).resolve() == own.resolve())
    ):
        return program
    try:
        return str(own.relative_to(Path.cwd()))
    except ValueError:
        return str(own)


@contextlib.contextmanager
def reading_store(db: Path, data_errors: bool = True) -> Iterator[None]:
    """Turn a tournament database that breaks while being read (damaged pages) into a clear
    error; `data_errors`: unreadable JSON in a row too (else it propagates)."""
    import sqlite3

    from tournaments.domain.store import StoreError

    try:
        yield
    except (sqlite3.DatabaseError, StoreError) as exc:
        fail(f"cannot read the tournament database {db}: {exc} (is the file damaged?)")
    except (ValueError, KeyError, TypeError) as exc:
        if not data_errors:
            raise
        fail(f"cannot read the tournament database {db}: bad data ({exc}); is the file damaged?")


def running_store(stack: contextlib.ExitStack, db: Path) -> Store:
    """The run's database `db`, locked for this runner and open until `stack` closes: a second
    runner on the same file, or a file that is not a tournament database, stops here with a
    clear error."""
    from tournaments.domain.store import RunLock, Store, StoreError

    try:
        stack.enter_context(RunLock(db))
        return stack.enter_context(Store.open(db))
    except StoreError as exc:
        fail(str(exc))


def leave_interrupted(signum: int, db: Path) -> NoReturn:
    """Report a run stopped by signal `signum` (its counts read back from `db`) and leave with
    128 + signum: the same command resumes it."""
    import sqlite3

    from tournaments.domain.store import Store, StoreError

    counts = ""
    try:
        with Store.open(db, create=False) as store:
            done, total = store.counts()
        counts = f"{done} of {total} games done; "
    except (StoreError, sqlite3.Error):
        pass
    err_console.print(
        f"interrupted: {counts}run the same command again to resume", markup=False, highlight=False
    )
    raise typer.Exit(128 + signum)


ISOLATION_HELP = (
    "How bots run: none | process | sandbox (default: the strongest this machine "
    "offers; docs/security.md)."
)


# referee.clocks.CPU_CEILING, written out so that --help needs no import of the referee.
CLOCK_HELP = (
    "What a move's time limit counts: wall (the default: time from request to answer) "
    "| cpu (the CPU time the bot's processes used, from its cgroup: load from others "
    "costs it nothing; a wall-clock ceiling of 4x the limit still ends a move in which "
    "it sleeps or is starved; docs/security.md)."
)


def check_clock(clock: str) -> str:
    """`clock` if this machine can keep it; else exit 2 saying what is wrong or missing."""
    from referee import CLOCKS, ClockError, require_cpu_clock

    if clock not in CLOCKS:
        fail(f"--clock is {' or '.join(CLOCKS)}, not {clock!r}")
    if clock == "cpu":
        try:
            require_cpu_clock()
        except ClockError as exc:
            fail(str(exc))
    return clock


def isolation_line(level: str) -> str:
    """`isolation: LEVEL`, with what it cannot promise on this machine, as every run prints."""
    from referee import caveats

    note = caveats(level)
    return f"isolation: {level}" + (f" ({note})" if note else "")


def check_isolation(level: str | None) -> str:
    """`level` (None: the strongest available) if this machine can run bots so; else exit 2
    saying what is missing."""
    from referee import IsolationError, require

    try:
        return require(level)
    except IsolationError as exc:
        fail(str(exc))


def check_fault_policy(policy: str) -> str:
    """`policy` if it is a fault policy (referee.FaultPolicy); else exit 2 naming them."""
    from referee import FAULT_POLICIES

    if policy not in FAULT_POLICIES:
        fail(f"--fault-policy must be one of {', '.join(FAULT_POLICIES)}, not {policy!r}")
    return policy


def parse_options(texts: Sequence[str], wild: str | None = None) -> dict[str, str]:
    """`--option KEY=VALUE` (repeatable) as a map, or exit 2 saying how to write one. A key may
    use - for _. `wild` is the value of the --wild-order alias (the option its name says)."""
    given: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            fail(f"--option {text!r}: write KEY=VALUE, e.g. --option {WILD_ORDER_OPTION}=GOPYBR")
        given[key.strip().replace("-", "_")] = value.strip()
    if wild is not None:
        given[WILD_ORDER_OPTION] = wild
    return given


def check_ruleset(
    ruleset: str,
    players: int | None = None,
    options: Sequence[str] | Mapping[str, str] = (),
    wild: str | None = None,
) -> dict[str, str]:
    """Check --ruleset (with --players and its --option KEY=VALUE, or a map of them, and the
    --wild-order alias) before anything runs, failing with a clear message; return the options
    as the engine's new_game takes them (text, checked by the family's schema)."""
    from referee.engine import RULESETS, EngineError, check_options

    if ruleset not in RULESETS:
        fail(f"--ruleset {ruleset!r} is not a ruleset; the rulesets are: {', '.join(RULESETS)}")
    rules = RULESETS[ruleset]
    if players is not None:
        try:
            rules.check_players(players)
        except EngineError as exc:
            fail(f"--players {players}: {exc}")
    given = dict(options) if isinstance(options, Mapping) else parse_options(options, wild)
    try:  # the family's option schema is the judge of what a value may be
        checked = check_options(ruleset, given)
    except EngineError as exc:
        fail(f"--option: {exc}")
    return {name: str(value) for name, value in checked.items()}


# --cluster-security, one option wherever a command reaches a Dask scheduler (--cluster).
ClusterSecurity = Annotated[
    Path | None,
    typer.Option(
        "--cluster-security",
        metavar="DIR",
        help="Mutual TLS with a tls:// scheduler: DIR holds ca.pem, client.pem and client.key "
        "(default: Dask's configuration; docs/cluster.md).",
    ),
]

# Options of a ruleset on the command line: one flag for all (the family's schema checks them).
# A key is written as the schema names it (wild_order); parse_options also takes - for _.
OPTION_HELP = (
    "A ruleset option KEY=VALUE, repeatable; an unknown key lists the ruleset's options "
    "(Summer Pavilion: wild_order=GOPYBR)."
)
# An alias kept from before --option: --wild-order X is --option wild_order=X.
WILD_ORDER_ALIAS = "--wild-order"
WILD_ORDER_OPTION = "wild_order"
WILD_ORDER_HELP = (
    "Summer Pavilion: the wild colour of rounds 1-6 as six letters, an order of "
    "PGOYBR (purple green orange yellow blue red), e.g. GOPYBR; default PGOYBR. "
    f"Short for --option {WILD_ORDER_OPTION}=..."
)


def builtin_rulesets(name: str) -> list[str] | None:
    """The rulesets built-in bot `name` plays (its class's `rulesets`; the classic family when it
    names none), or None when `name` is not a built-in. Bot files and command lines say it in
    their Hello (Arena.declared_rulesets): their code runs only in their own sandboxed process."""
    from referee import builtin_bots, parse_builtin

    try:
        found = parse_builtin(name)  # mcts:iterations=400 is mcts
    except ValueError:
        return None  # launching it says what is wrong
    if found is None:
        return None
    from referee.engine import rulesets_played
    from sdk.run import load_bot_class

    return rulesets_played(load_bot_class(builtin_bots()[found[0]]).rulesets)


def check_plays(specs: list[str], ruleset: str) -> None:
    """Raise ValueError for a bot that cannot be launched (`referee.check_entry`: a typo, a
    missing file) or a built-in bot that does not play `ruleset`: said before any game, not
    found out as a fault in every game."""
    from referee import check_entry

    for spec in dict.fromkeys(specs):
        check_entry(spec)
        plays = builtin_rulesets(spec)
        if plays is not None and ruleset not in plays:
            raise ValueError(
                f"the built-in bot {spec} does not play {ruleset}; it plays {', '.join(plays)}"
            )


def write_page(path: Path, text: str, what: str) -> None:
    """Write a page the command made to `path`, or exit 2 saying why it cannot."""
    if path.is_dir():
        fail(f"-o {path} is a directory; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {what} to {path}: {exc.strerror or exc}")


def open_in_browser(path: Path) -> None:
    """Open a page in the user's browser (--open), or say where it is."""
    import webbrowser

    if not webbrowser.open(path.resolve().as_uri()):
        err_console.print(f"no browser found here: open {path} yourself")


def cluster_options(
    address: str | None,
    workers: int | None,
    concurrency: int,
    security: Path | None = None,
) -> ClusterOptions | None:
    """The `ClusterOptions` for --cluster / --workers, or None for the embedded runner; a
    warning when the scheduler is plain TCP on another machine."""
    if address is None and workers is None:
        if security is not None:
            fail("--cluster-security goes with --cluster tls://HOST:PORT")
        return None
    from tournaments.domain.cluster import ClusterOptions, exposure_warning

    if address is not None and "://" not in address:
        address = f"tcp://{address}"
    if security is not None and (address is None or not address.startswith("tls://")):
        fail("--cluster-security goes with a tls:// scheduler address (--cluster tls://HOST:PORT)")
    warning = exposure_warning(address) if address is not None else None
    if warning is not None:
        err_console.print(f"[yellow]warning:[/] {warning}", highlight=False, soft_wrap=True)
    threads = max(1, concurrency // workers) if workers else 1
    return ClusterOptions(address=address, workers=workers, threads=threads, security=security)


def moved(old: str, new: str, verb: Callable[..., Any]) -> Callable[..., Any]:
    """`verb` under its old spelling: the same options, after a note on stderr saying where it
    moved (registered hidden, so that scripts and readers of older docs keep working)."""
    import functools

    @functools.wraps(verb)  # typer reads the options from the wrapped signature
    def alias(*args: Any, **kwargs: Any) -> Any:
        err_console.print(
            f"note: `azul-arena {old}` is now `azul-arena {new}`; the old spelling will go",
            highlight=False,
        )
        return verb(*args, **kwargs)

    return alias
