"""Bot author commands: `bot new` (scaffold), `bot check` (compliance), `bench strength`."""
# ruff: noqa: B008  (typer declares options as argument defaults)

from __future__ import annotations

import keyword
import re
import string
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import typer

from referee.loop import run as run_loop
from tournaments.commands.common import (
    ISOLATION_HELP,
    WILD_ORDER_HELP,
    Exit,
    builtin_rulesets,
    check_isolation,
    check_plays,
    check_ruleset,
    classic_rulesets,
    console,
    err_console,
    fail,
    print_json,
)
from tournaments.commands.groups import bench_app, bot_app

REFERENCE_BOTS = ("random", "greedy", "search", "mcts")
# A freshly launched bot's first answer includes its warm-up (lazy imports): without an
# allowance one slow first move can cascade into strikes (a late reply then counts as malformed).
FIRST_MOVE_ALLOWANCE = 1.0


# -- bot new ---------------------------------------------------------------------------------
def class_name_for(name: str) -> str:
    """`my-bot` -> `MyBot` (a valid identifier ending in Bot)."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    base = "".join(w[:1].upper() + w[1:] for w in words) or "My"
    if base[0].isdigit():
        base = "Bot" + base
    return base if base.endswith("Bot") else base + "Bot"


def scaffold(name: str, directory: Path) -> list[Path]:
    """Write the bot project `directory/name` from bots/templates; returns the files written."""
    target = directory / name
    if target.exists() and any(target.iterdir()):
        raise FileExistsError(f"{target} exists and is not empty")
    class_name = class_name_for(name)
    if keyword.iskeyword(class_name):
        class_name += "_"
    values = {"name": name, "class_name": class_name, "dir_name": str(target)}
    target.mkdir(parents=True, exist_ok=True)
    written = []
    templates = resources.files("bots") / "templates"
    for template, out in (("bot.py.tmpl", "bot.py"), ("test_bot.py.tmpl", "test_bot.py"),
                          ("README.md.tmpl", "README.md")):
        text = string.Template((templates / template).read_text()).substitute(values)
        path = target / out
        path.write_text(text)
        written.append(path)
    return written


@bot_app.command("new")
def bot_new(
    name: str = typer.Argument(..., help="the bot's name; also its folder"),
    directory: Path = typer.Option(Path("."), "--dir", "-d", help="where to create the folder"),
    lang: str = typer.Option("python", "--lang", "-l",
                             help="python, node (Node.js) or cpp (C++17)"),
    install: bool = typer.Option(True, "--install/--no-install",
                                 help="node: run npm install; cpp: build it (else say how)"),
) -> None:
    """Scaffold a bot project that plays as it is. python: bot.py, test_bot.py and a README on the
    API. node, cpp: a bot folder from the starter kit (its library, a greedy sample bot, bot.toml,
    the .proto files, a README); its dependencies are installed (node) or it is built (cpp).

    Example: [bold]azul-arena bot new mybot --lang node[/] then [bold]azul-arena bot check
    ./mybot[/]
    """
    from tournaments.kits import KITS

    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        fail("NAME is letters, digits, '-' and '_', starting with a letter")
    if lang != "python" and lang not in KITS:
        fail(f"--lang is python, {' or '.join(KITS)}, not {lang!r}")
    try:
        written = scaffold(name, directory) if lang == "python" else _scaffold_kit(lang, name,
                                                                                   directory)
    except FileExistsError as exc:
        fail(str(exc))
        return
    for path in written:
        console.print(f"created {path}")
    if lang == "python":
        bot_file = written[0]
        console.print(f"\nnext:\n  azul-arena match {bot_file} random\n"
                      f"  azul-arena bot check {bot_file}\n  python -m pytest {bot_file.parent}")
        return
    folder = directory / name
    ready = _prepare_kit(lang, folder) if install else False
    if not ready:
        from tournaments.kits import prepare_command

        console.print(f"\nbefore its first game, run in {folder}:\n  "
                      f"{prepare_command(lang, folder)}")
    console.print(f"\nnext (edit {folder / KITS[lang].bot_file}):\n"
                  f"  azul-arena match {folder} random\n  azul-arena bot check {folder}")


def _scaffold_kit(lang: str, name: str, directory: Path) -> list[Path]:
    from tournaments.kits import scaffold_kit

    written = scaffold_kit(lang, name, directory)
    return [p for p in written if p.parent == directory / name] + [directory / name / "proto"]


def _prepare_kit(lang: str, folder: Path) -> bool:
    """Install the new folder's dependencies or build it; False (with the reason) on failure."""
    import subprocess

    from tournaments.kits import prepare, prepare_command

    command = prepare_command(lang, folder)
    with err_console.status(f"{command} (in {folder}) ..."):
        try:
            done = prepare(lang, folder)
        except FileNotFoundError as exc:
            err_console.print(f"[yellow]{exc}[/]: cannot prepare the bot here")
            return False
        except subprocess.TimeoutExpired:
            err_console.print(f"[yellow]{command} took too long[/]")
            return False
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        err_console.print(f"{command} failed (exit {done.returncode}):", style="yellow",
                          markup=False)
        err_console.print(tail, highlight=False, markup=False)
        return False
    console.print(f"done: {command}", markup=False)
    return True


# -- bot check -------------------------------------------------------------------------------
@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class CheckReport:
    entry: str
    rulesets: list[str]
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    def as_dict(self) -> dict[str, Any]:
        return {"entry": self.entry, "passed": self.passed, "rulesets": self.rulesets,
                "checks": [{"name": c.name, "passed": c.passed, "detail": c.detail}
                           for c in self.checks]}


def declared(rulesets: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """What a bot's Hello lists, as (the rulesets to check it on, the names no ruleset has): the
    listed rulesets, or every classic one when it lists none."""
    from referee.engine import RULESETS

    known = [r for r in rulesets if r in RULESETS]
    return (known or classic_rulesets()), [r for r in rulesets if r not in RULESETS]


async def _check_games(entry: str, rulesets: list[str] | None, games: int, time_per_move: float,
                       grace: float, isolation: str | None = None
                       ) -> tuple[list[str], list[str], list[tuple[str, int, Any]]]:
    """Play the bot (seat rotating) against random bots: every ruleset x 2, 3, 4 players. With
    no `rulesets`, those the bot declares in its Hello. Returns the rulesets, the unknown names
    the bot declared, and each game's (ruleset, players, the bot's SeatResult)."""
    from referee import Arena, MatchConfig

    out = []
    unknown: list[str] = []
    async with Arena([entry, "random"], isolation=isolation) as arena:
        if rulesets is None:
            said = await arena.declared_rulesets(entry)
            # A bot that does not start fails the handshake check on its first game.
            rulesets, unknown = declared(said or ()) if said is not None else (["azul"], [])
        game_no = 0
        for ruleset in rulesets:
            for players in (2, 3, 4):
                for _ in range(games):
                    seat = game_no % players
                    seats = ["random"] * players
                    seats[seat] = entry
                    config = MatchConfig(ruleset=ruleset, seed=1000 + game_no,
                                         time_per_move=time_per_move, grace=grace,
                                         first_move_allowance=FIRST_MOVE_ALLOWANCE,
                                         fault_policy="forfeit")
                    result = await arena.play(seats, config)
                    out.append((ruleset, players, result.seats[seat]))
                    game_no += 1
    return rulesets, unknown, out


def run_check(entry: str, games: int = 1, time_per_move: float = 0.5, grace: float = 0.05,
              rulesets: list[str] | None = None, isolation: str | None = None) -> CheckReport:
    """Check `entry` through the real referee path; see `bot check`."""
    from referee.launcher import check_entry

    report = CheckReport(entry, list(rulesets or []))
    try:
        check_entry(entry)
    except ValueError as exc:
        report.checks.append(Check("launch", False, str(exc)))
        return report
    began = time.monotonic()
    report.rulesets, unknown, seats = run_loop(
        _check_games(entry, rulesets, games, time_per_move, grace, isolation))
    first = seats[0][2]
    # No name: the bot never said Hello (the referee played its seat without it).
    handshake = first.termination not in ("no_hello", "version_mismatch", "bad_token") and not (
        first.termination in ("crash", "malformed") and (first.moves == 0 or not first.bot_name))
    report.checks.append(Check(
        "launch and handshake", handshake,
        f"said Hello as {first.bot_name!r}" if handshake else
        f"{first.termination}: {first.detail or 'no detail'}" +
        ("" if first.log_path in first.detail else f"; see the log {first.log_path}")))
    if not handshake:
        return report
    if unknown:
        report.checks.append(Check("declares known rulesets", False,
                                   f"its Hello lists {', '.join(unknown)}, which no ruleset is"))

    def faults(kinds: tuple[str, ...], which: list[Any]) -> int:
        return sum(s.faults.get(k, 0) for _, _, s in which for k in kinds)

    timeouts = faults(("timeout",), seats)
    slowest = max(s.move_time_total / max(1, s.moves) for _, _, s in seats)
    report.checks.append(Check(
        f"answers within {time_per_move:g} s (+{grace:g} s grace)", timeouts == 0,
        f"{timeouts} timeouts in {len(seats)} games" if timeouts else
        f"slowest game average {slowest * 1e3:.1f} ms/move"))
    illegal = faults(("illegal", "malformed"), seats)
    report.checks.append(Check("only legal moves", illegal == 0,
                               f"{illegal} illegal or malformed answers" if illegal else
                               f"{sum(s.moves for _, _, s in seats)} moves, all legal"))
    for players in (2, 3, 4):
        mine = [s for _, p, s in seats if p == players]
        bad = [s for s in mine if s.termination != "ok"]
        report.checks.append(Check(
            f"survives {players}-player games", not bad,
            ", ".join(sorted({s.termination for s in bad})) if bad else f"{len(mine)} completed"))
    for ruleset in report.rulesets:
        mine = [s for r, _, s in seats if r == ruleset]
        bad = [s for s in mine if s.termination != "ok"]
        report.checks.append(Check(
            f"plays {ruleset}", not bad,
            ", ".join(sorted({s.termination for s in bad})) if bad else
            f"{len(mine)} games, mean score {sum(s.score for s in mine) / len(mine):.1f}"))
    report.checks.append(Check("finished", True, f"{time.monotonic() - began:.1f} s"))
    return report


@bot_app.command("check")
def bot_check(
    entry: str = typer.Argument(..., help="built-in name, path/bot.py[:Class], a bot folder "
                                          "(its bot.toml) or a quoted command line"),
    games: int = typer.Option(1, "--games", "-n", min=1,
                              help="games per ruleset and player count"),
    time_per_move: float = typer.Option(0.5, "--time-per-move", "-t", min=0.001,
                                        help="seconds per move"),
    grace: float = typer.Option(0.05, "--grace", min=0.0, help="grace margin, seconds"),
    ruleset: list[str] = typer.Option([], "--ruleset", "-r",
                                      help="check these rulesets (default: all it claims; "
                                           "a command line: the classic ones)"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
    isolation: str | None = typer.Option(None, "--isolation", help=ISOLATION_HELP),
) -> None:
    """Compliance run through the real referee: handshake, answers within the limit, only legal
    moves, 2-4 players and every ruleset the bot claims. Exit 0 when every check passes, else 1.

    Example: [bold]azul-arena bot check ./mybot/bot.py[/], [bold]azul-arena bot check ./mybot[/]
    (a bot folder in any language; its build step, if any, runs first)
    """
    from referee.engine import RULESETS

    unknown = [r for r in ruleset if r not in RULESETS]
    if unknown:
        fail(f"unknown ruleset(s) {', '.join(unknown)}; known: {', '.join(RULESETS)}")
    level = check_isolation(isolation)
    if not as_json:
        console.print(f"checking {entry} ... (isolation: {level})", highlight=False)
    report = run_check(entry, games, time_per_move, grace, list(ruleset) or None, level)
    if as_json:
        print_json(report.as_dict())
    else:
        from rich.table import Table

        table = Table(title=f"bot check: {entry} ({', '.join(report.rulesets)})")
        for col in ("check", "result"):
            table.add_column(col)
        table.add_column("detail", overflow="fold")  # paths to logs in full
        for c in report.checks:
            table.add_row(c.name, "[green]pass[/]" if c.passed else "[bold red]FAIL[/]",
                          c.detail)
        console.print(table)
        console.print("[bold green]PASS[/]" if report.passed else "[bold red]FAIL[/]")
    raise typer.Exit(int(Exit.OK if report.passed else Exit.FAILED))


# -- bench strength --------------------------------------------------------------------------
@bench_app.command("strength")
def bench_strength(
    time_per_move: float = typer.Option(0.1, "--time-per-move", "-t", min=0.001,
                                        help="seconds per move"),
    games: int = typer.Option(20, "--games", "-n", min=1,
                              help="games per line-up (2 players: per pair; seats rotate "
                                   "over the same deals)"),
    bots: list[str] = typer.Option(list(REFERENCE_BOTS), "--bot", "-b",
                                   help="bots to compare (default: the reference bots)"),
    ruleset: str = typer.Option("azul", "--ruleset", "-r"),
    players: int = typer.Option(2, "--players", "-p", min=2, max=4,
                                help="players per game: 3 or 4 play every line-up of that "
                                     "many bots"),
    wild_order: str | None = typer.Option(None, "--wild-order", help=WILD_ORDER_HELP),
    seed: int = typer.Option(1, "--seed", help="seed of the first deal"),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1,
                                    help="games at once through the referee (1: the bots do "
                                         "not compete for the CPU)"),
    local: bool = typer.Option(False, "--local", help="play in-process with sdk.local instead "
                                                      "of through the referee"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """The strength ladder among the reference bots: every pair's win rate with a 95% interval,
    as a matrix, and each bot's mean rank, score and faults.

    Runs through the real referee (bot processes, gRPC, the referee's clocks), one game at a
    time unless --concurrency says otherwise; --local plays in this process instead. With 2
    players every pair plays -n games (game g deals from seed + g // 2, seats swapped on odd
    games); with 3 or 4, every line-up of that many bots plays -n games with the seats rotated
    over the same deals, and each game counts for every pair in it (who ranked higher). Bots
    that do not play the ruleset are left out. A benchmark, not a test. Example:
    [bold]azul-arena bench strength --ruleset pavilion -t 0.1 -n 40[/]
    or [bold]azul-arena bench strength --players 3 -t 0.1 -n 12[/]
    """
    from tournaments.strength import play_local, play_referee

    options = check_ruleset(ruleset, players, wild_order)
    # The default ladder leaves out the reference bots that do not play the ruleset; a bot
    # named with --bot must play it.
    skipped = [b for b in bots if ruleset not in (builtin_rulesets(b) or [ruleset])
               ] if list(bots) == list(REFERENCE_BOTS) else []
    bots = [b for b in bots if b not in skipped]
    try:
        check_plays(bots, ruleset)
    except ValueError as exc:
        fail(str(exc))
    if skipped and not as_json:
        err_console.print(f"left out (they do not play {ruleset}): {', '.join(skipped)}")
    if len(bots) < 2:
        fail("name at least two bots")
    if len(set(bots)) != len(bots):
        fail("name each bot once (a bot is not compared with itself)")
    if players > len(bots):
        fail(f"--players {players} needs at least {players} bots; {len(bots)} play {ruleset}: "
             f"{', '.join(bots)}")
    began = time.monotonic()

    def progress(ladder: Any, total: int) -> None:
        if not as_json:
            err_console.print(f"  game {ladder.games}/{total}", end="\r", highlight=False)

    try:
        if local:
            ladder = play_local(list(bots), games, time_per_move, ruleset, seed, players,
                                progress, options)
        else:
            ladder = play_referee(list(bots), games, time_per_move, ruleset, seed, players,
                                  concurrency, progress, options, FIRST_MOVE_ALLOWANCE)
    except ValueError as exc:
        fail(str(exc))
        return
    elapsed = time.monotonic() - began
    path = "local" if local else "referee"
    if as_json:
        print_json({"pairs": [p.as_dict() for p in ladder.pairs.values()],
                    "bots": [b.as_dict() for b in ladder.by_bot.values()],
                    "time_per_move": time_per_move, "games_per_pair": games,
                    "ruleset": ruleset, "options": options, "left_out": skipped,
                    "players": players, "concurrency": 1 if local else concurrency,
                    "games": ladder.games, "faults": ladder.faults(), "path": path,
                    "seed": seed, "seconds": round(elapsed, 1)})
        return
    from rich.table import Table

    title = (f"strength: {ruleset}, {players} players, {time_per_move:g} s/move, "
             f"{games} games per {'pair' if players == 2 else 'line-up'}, {path} path"
             + ("" if local or concurrency == 1 else f", {concurrency} at once")
             + f" ({elapsed:.0f} s)")
    matrix = Table(title=title, caption="row's win rate against the column (draws half), "
                                        "95% interval, games")
    matrix.add_column("")
    for b in bots:
        matrix.add_column(b, justify="center")
    for a in bots:
        cells = []
        for b in bots:
            if a == b:
                cells.append("-")
                continue
            rate, (low, high), n = ladder.pair(a, b)
            cells.append(f"{rate:.0%} ({low:.0%}-{high:.0%}) {n}")
        matrix.add_row(a, *cells)
    console.print(matrix)
    table = Table()
    for col in ("bot", "games", "mean rank", "firsts", "mean score", "faults"):
        table.add_column(col)
    for r in sorted(ladder.by_bot.values(), key=lambda r: r.mean_rank):
        table.add_row(r.name, str(r.games), f"{r.mean_rank:.2f}", str(r.firsts),
                      f"{r.points / max(1, r.games):.1f}",
                      str(r.faults) if not r.faults else f"[bold red]{r.faults}[/]")
    console.print(table)
