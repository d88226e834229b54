"""Bot author commands: `bot new` (scaffold), `bot check` (compliance), `bench strength`."""
# ruff: noqa: B008  (typer declares options as argument defaults)

from __future__ import annotations

import keyword
import re
import string
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import typer

from referee import run_loop
from tournaments.commands.common import (
    ISOLATION_HELP,
    WILD_ORDER_HELP,
    Exit,
    builtin_rulesets,
    check_isolation,
    check_plays,
    check_ruleset,
    console,
    err_console,
    fail,
    print_json,
)
from tournaments.commands.groups import bench_app, bot_app
from tournaments.compliance import FIRST_MOVE_ALLOWANCE, run_check
from tournaments.report import wilson

REFERENCE_BOTS = ("random", "greedy", "search", "mcts")


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
@dataclass
class PairResult:
    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    a_points: int = 0
    b_points: int = 0
    faults: int = 0

    @property
    def a_win_rate(self) -> float:
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        low, high = wilson(self.a_wins + 0.5 * self.draws, self.games)
        return {"a": self.a, "b": self.b, "games": self.games, "a_win_rate": round(
            self.a_win_rate, 4), "ci95": [round(low, 4), round(high, 4)], "a_wins": self.a_wins,
            "b_wins": self.b_wins, "draws": self.draws,
            "a_mean_score": round(self.a_points / max(1, self.games), 2),
            "b_mean_score": round(self.b_points / max(1, self.games), 2), "faults": self.faults}


def _tally(pair: PairResult, a_seat: int, scores: list[int], ranks: list[int],
           faults: int) -> None:
    b_seat = 1 - a_seat
    pair.games += 1
    pair.a_points += scores[a_seat]
    pair.b_points += scores[b_seat]
    pair.faults += faults
    if ranks[a_seat] < ranks[b_seat]:
        pair.a_wins += 1
    elif ranks[a_seat] > ranks[b_seat]:
        pair.b_wins += 1
    else:
        pair.draws += 1


def strength_referee(bots: list[str], games: int, time_per_move: float, ruleset: str,
                     seed: int, progress: Any = None,
                     options: dict[str, str] | None = None) -> list[PairResult]:
    """Round-robin through the real referee (bot processes, gRPC), one game at a time."""
    from referee import Arena, MatchConfig

    async def main() -> list[PairResult]:
        out = []
        async with Arena(bots) as arena:
            for i, a in enumerate(bots):
                for b in bots[i + 1:]:
                    pair = PairResult(a, b)
                    for g in range(games):
                        a_seat = g % 2  # seat rotation over the same deals
                        seats = [a, b] if a_seat == 0 else [b, a]
                        config = MatchConfig(ruleset=ruleset, seed=seed + g // 2,
                                             options=dict(options or {}),
                                             time_per_move=time_per_move,
                                             first_move_allowance=FIRST_MOVE_ALLOWANCE)
                        r = await arena.play(seats, config)
                        _tally(pair, a_seat, r.scores, r.ranks,
                               sum(sum(s.faults.values()) for s in r.seats))
                        if progress:
                            progress(pair)
                    out.append(pair)
        return out

    return run_loop(main())


def strength_local(bots: list[str], games: int, time_per_move: float, ruleset: str,
                   seed: int, progress: Any = None,
                   options: dict[str, str] | None = None) -> list[PairResult]:
    """Round-robin in this process with sdk.local (no referee, no processes)."""
    from referee import builtin_target
    from sdk.local import play_local
    from sdk.run import load_bot

    out = []
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            pair = PairResult(a, b)
            for g in range(games):
                a_seat = g % 2
                names = [a, b] if a_seat == 0 else [b, a]
                players = [load_bot(builtin_target(n) or n) for n in names]
                r = play_local(players, ruleset=ruleset, seed=seed + g // 2,
                               time_per_move=time_per_move, options=options)
                _tally(pair, a_seat, r.scores, r.ranks, r.faults)
                if progress:
                    progress(pair)
            out.append(pair)
    return out


@bench_app.command("strength")
def bench_strength(
    time_per_move: float = typer.Option(0.1, "--time-per-move", "-t", min=0.001,
                                        help="seconds per move"),
    games: int = typer.Option(20, "--games", "-n", min=1,
                              help="games per pair (seats alternate over the same deals)"),
    bots: list[str] = typer.Option(list(REFERENCE_BOTS), "--bot", "-b",
                                   help="bots to compare (default: the reference bots)"),
    ruleset: str = typer.Option("azul", "--ruleset", "-r"),
    wild_order: str | None = typer.Option(None, "--wild-order", help=WILD_ORDER_HELP),
    seed: int = typer.Option(1, "--seed", help="seed of the first deal"),
    local: bool = typer.Option(False, "--local", help="play in-process with sdk.local instead "
                                                      "of through the referee"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object on stdout"),
) -> None:
    """Round-robin among the reference bots, 2 players: each pair's win rate with a 95% interval.

    Runs through the real referee (bot processes, gRPC, the referee's clocks), one game at a
    time so that the bots do not compete for the CPU; --local plays in this process instead.
    Game g of a pair uses the deals of seed + g // 2, with the seats swapped on odd games.
    Bots that do not play the ruleset are left out (the search bot plays the classic family
    only). A benchmark, not a test. Example: [bold]azul-arena bench strength -t 0.1 -n 40[/]
    or [bold]azul-arena bench strength --ruleset pavilion -t 0.1 -n 20[/]
    """
    options = check_ruleset(ruleset, 2, wild_order)
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
    began = time.monotonic()

    def progress(pair: PairResult) -> None:
        if not as_json:
            err_console.print(f"  {pair.a} vs {pair.b}: game {pair.games}/{games}",
                              end="\r", highlight=False)

    runner = strength_local if local else strength_referee
    try:
        pairs = runner(list(bots), games, time_per_move, ruleset, seed, progress, options)
    except ValueError as exc:
        fail(str(exc))
        return
    elapsed = time.monotonic() - began
    path = "local" if local else "referee"
    if as_json:
        print_json({"pairs": [p.as_dict() for p in pairs], "time_per_move": time_per_move,
                    "games_per_pair": games, "ruleset": ruleset, "options": options,
                    "left_out": skipped, "players": 2, "path": path,
                    "seed": seed, "seconds": round(elapsed, 1)})
        return
    from rich.table import Table

    table = Table(title=f"strength: {ruleset}, 2 players, {time_per_move:g} s/move, "
                        f"{games} games/pair, {path} path ({elapsed:.0f} s)")
    for col in ("a", "b", "games", "a win rate", "95% interval", "a-b-draw", "mean score",
                "faults"):
        table.add_column(col)
    for p in pairs:
        d = p.as_dict()
        table.add_row(p.a, p.b, str(p.games), f"{d['a_win_rate']:.1%}",
                      f"{d['ci95'][0]:.1%} - {d['ci95'][1]:.1%}",
                      f"{p.a_wins}-{p.b_wins}-{p.draws}",
                      f"{d['a_mean_score']:.1f} : {d['b_mean_score']:.1f}", str(p.faults))
    console.print(table)
