"""`azul-arena bot new` (a bot project from a template or a starter kit) and `bot check` (the
compliance run in tournaments/domain/compliance.py)."""

from __future__ import annotations

import keyword
import re
import string
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from tournaments.commands.common import (
    ISOLATION_HELP,
    LOGS_DIR,
    Exit,
    check_isolation,
    console,
    err_console,
    fail,
    print_json,
    shell_command,
)
from tournaments.commands.groups import bot_app


# -- bot new ---------------------------------------------------------------------------------
def class_name_for(name: str) -> str:
    """`my-bot` -> `MyBot` (a valid identifier ending in Bot)."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
    base = "".join(w[:1].upper() + w[1:] for w in words) or "My"
    if base[0].isdigit():
        base = "Bot" + base
    return base if base.endswith("Bot") else base + "Bot"


TEMPLATES = {"greedy": "", "rl": "rl/"}  # bot new --template: its folder in bots/templates


def scaffold(
    name: str, directory: Path, template: str = "greedy", ruleset: str = "azul"
) -> list[Path]:
    """Write the bot project `directory/name` from bots/templates; returns the files written.
    `template` "rl": a PolicyBot of `ruleset`'s family, with an untrained policy.npz."""
    target = directory / name
    if target.exists() and any(target.iterdir()):
        raise FileExistsError(f"{target} exists and is not empty")
    class_name = class_name_for(name)
    if keyword.iskeyword(class_name):
        class_name += "_"
    values = {"name": name, "class_name": class_name, "dir_name": str(target), "ruleset": ruleset}
    if template == "rl":
        from referee.engine import get_ruleset

        values["family"] = get_ruleset(ruleset).family
    target.mkdir(parents=True, exist_ok=True)
    written = []
    templates = resources.files("bots") / "templates"
    for source, out in (
        ("bot.py.tmpl", "bot.py"),
        ("test_bot.py.tmpl", "test_bot.py"),
        ("README.md.tmpl", "README.md"),
    ):
        text = (templates / (TEMPLATES[template] + source)).read_text()
        path = target / out
        path.write_text(string.Template(text).substitute(values))
        written.append(path)
    if template == "rl":
        from sdk.rl.policy import untrained_policy

        untrained_policy(ruleset).save(target / "policy.npz")
        written.append(target / "policy.npz")
    return written


@bot_app.command("new")
def bot_new(
    name: Annotated[str, typer.Argument(help="the bot's name; also its folder")],
    directory: Annotated[
        Path, typer.Option("--dir", "-d", help="where to create the folder")
    ] = Path("."),
    lang: Annotated[
        str, typer.Option("--lang", "-l", help="python, node (Node.js) or cpp (C++17)")
    ] = "python",
    install: Annotated[
        bool,
        typer.Option(
            "--install/--no-install", help="node: run npm install; cpp: build it (else say how)"
        ),
    ] = True,
    template: Annotated[
        str,
        typer.Option(
            "--template",
            "-t",
            help="python: greedy (a one-move lookahead) or rl (a trained policy, sdk.rl)",
        ),
    ] = "greedy",
    ruleset: Annotated[
        str, typer.Option("--ruleset", "-r", help="--template rl: the ruleset to train for")
    ] = "azul",
) -> None:
    """Scaffold a bot project that plays as it is. python: bot.py, test_bot.py and a README on the
    API. node, cpp: a bot folder from the starter kit (its library, a greedy sample bot, bot.toml,
    the .proto files, a README); its dependencies are installed (node) or it is built (cpp).

    --template rl: a PolicyBot (sdk.rl) with an untrained policy.npz and how to train it.

    Example: [bold]azul-arena bot new mybot --lang node[/] then [bold]azul-arena bot check
    ./mybot[/]; [bold]azul-arena bot new student --template rl[/]
    """
    from tournaments.terminal.kits import KITS

    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        fail("NAME is letters, digits, '-' and '_', starting with a letter")
    if lang != "python" and lang not in KITS:
        fail(f"--lang is python, {' or '.join(KITS)}, not {lang!r}")
    _check_template(template, lang, ruleset)
    try:
        written = (
            scaffold(name, directory, template, ruleset)
            if lang == "python"
            else _scaffold_kit(lang, name, directory)
        )
    except FileExistsError as exc:
        fail(str(exc))
    for path in written:
        console.print(f"created {path}", highlight=False)
    # The hints run as printed: this installation's commands, by path outside its venv.
    arena, python = shell_command("azul-arena"), shell_command("python")
    if template == "rl":
        console.print(
            f"\nnext (train it: a few minutes):\n  {python} -m sdk.rl.examples.train "
            f"--ruleset {ruleset} --out {written[0].parent / 'policy.npz'}",
            highlight=False,
        )
    if lang == "python":
        bot_file = written[0]
        import importlib.util

        # pytest is no dependency of azul-arena's own (its dev extra has it).
        pytest = "" if importlib.util.find_spec("pytest") else f"{python} -m pip install pytest; "
        console.print(
            f"\nnext:\n  {arena} match {bot_file} random\n"
            f"  {arena} bot check {bot_file}\n  {pytest}{python} -m pytest {bot_file.parent}",
            highlight=False,
        )
        return
    folder = directory / name
    ready = _prepare_kit(lang, folder) if install else False
    if not ready:
        from tournaments.terminal.kits import prepare_command

        console.print(
            f"\nbefore its first game, run in {folder}:\n  {prepare_command(lang, folder)}"
        )
    console.print(
        f"\nnext (edit {folder / KITS[lang].bot_file}):\n"
        f"  {arena} match {folder} random\n  {arena} bot check {folder}",
        highlight=False,
    )


def _check_template(template: str, lang: str, ruleset: str) -> None:
    """Exit with what is wrong about --template / --ruleset (before anything is written)."""
    if template not in TEMPLATES:
        fail(f"--template is {' or '.join(TEMPLATES)}, not {template!r}")
    if template != "rl":
        return
    if lang != "python":
        fail("--template rl is a Python bot: leave out --lang")
    from referee.engine import RULESETS

    if ruleset not in RULESETS:
        fail(f"unknown ruleset {ruleset!r}; known: {', '.join(RULESETS)}")
    from tournaments.commands.extras import needs

    problem = needs("rl", "--template rl")  # numpy, gymnasium, pettingzoo
    if problem:
        fail(problem)


def _scaffold_kit(lang: str, name: str, directory: Path) -> list[Path]:
    from tournaments.terminal.kits import scaffold_kit

    written = scaffold_kit(lang, name, directory)
    return [p for p in written if p.parent == directory / name] + [directory / name / "proto"]


def _prepare_kit(lang: str, folder: Path) -> bool:
    """Install the new folder's dependencies or build it; False (with the reason) on failure."""
    import subprocess

    from tournaments.terminal.kits import prepare, prepare_command

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
        err_console.print(
            f"{command} failed (exit {done.returncode}):", style="yellow", markup=False
        )
        err_console.print(tail, highlight=False, markup=False)
        return False
    console.print(f"done: {command}", markup=False)
    return True


# -- bot check -------------------------------------------------------------------------------
@bot_app.command("check")
def bot_check(
    entry: Annotated[
        str,
        typer.Argument(
            help="built-in name, path/bot.py[:Class], a bot folder "
            "(its bot.toml) or a quoted command line"
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games per ruleset and player count")
    ] = 1,
    time_per_move: Annotated[
        float, typer.Option("--time-per-move", "-t", min=0.001, help="seconds per move")
    ] = 0.5,
    grace: Annotated[float, typer.Option("--grace", min=0.0, help="grace margin, seconds")] = 0.05,
    ruleset: Annotated[
        list[str] | None,
        typer.Option(
            "--ruleset",
            "-r",
            help="check these rulesets (default: all it claims; a command line: the classic ones)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object on stdout")] = False,
    isolation: Annotated[str | None, typer.Option("--isolation", help=ISOLATION_HELP)] = None,
) -> None:
    """Compliance run through the real referee: handshake, answers within the limit, only legal
    moves, 2-4 players and every ruleset the bot claims. Exit 0 when every check passes, else 1.

    Example: [bold]azul-arena bot check ./mybot/bot.py[/], [bold]azul-arena bot check ./mybot[/]
    (a bot folder in any language; its build step, if any, runs first)
    """
    from referee.engine import RULESETS

    ruleset = ruleset or []
    unknown = [r for r in ruleset if r not in RULESETS]
    if unknown:
        fail(f"unknown ruleset(s) {', '.join(unknown)}; known: {', '.join(RULESETS)}")
    level = check_isolation(isolation)
    if not as_json:
        console.print(f"checking {entry} ... (isolation: {level})", highlight=False)
    from tournaments.domain.compliance import run_check

    report = run_check(
        entry, games, time_per_move, grace, list(ruleset) or None, level, log_dir=LOGS_DIR
    )
    if as_json:
        print_json(report.as_dict())
    else:
        from rich.markup import escape
        from rich.table import Table

        table = Table(title=f"bot check: {entry} ({', '.join(report.rulesets)})")
        for col in ("check", "result"):
            table.add_column(col)
        table.add_column("detail", overflow="fold")  # paths to logs in full
        for c in report.checks:
            table.add_row(c.name, "[green]pass[/]" if c.passed else "[bold red]FAIL[/]", c.detail)
        console.print(table)
        failed = next((c for c in report.checks if not c.passed), None)
        if failed is None:
            console.print("[bold green]PASS[/]")
        else:  # the first failure's reason once more, whole, where the eye lands last
            console.print(f"[bold red]FAIL[/] {escape(failed.name)}: {escape(failed.detail)}")
    raise typer.Exit(int(Exit.OK if report.passed else Exit.FAILED))
