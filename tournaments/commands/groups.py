"""The root typer app and its nouns, each loaded only when it is used.

`azul-arena --help` must start at once (under 0.3 s), so the root knows each noun's name, group
and help, but imports the module that registers a noun's verbs only when the noun is run or asked
for its own help. A noun is a typer group here (`bench_app`, ...) that its module decorates; a verb
without a noun (`demo`, `match`, `play`) is a one-verb app of its own.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class Noun:
    """A name on the root: the module that registers its verbs, and the app they are on."""

    modules: tuple[str, ...]  # the modules that register its verbs
    app: typer.Typer
    help: str
    hidden: bool = False  # a former spelling that says where the verb moved
    extra: str | None = None  # the install extra its verbs need (tournaments/commands/extras.py)


def summary(help: str, width: int = 120) -> str:
    """A command's line in its group's list: the first sentence of its help, cut at a word to
    `width` characters (the whole help is on the command's own --help)."""
    paragraph = " ".join(inspect.cleandoc(help).split("\n\n")[0].split())
    line = paragraph.split(". ")[0].rstrip(".")
    return line if len(line) <= width else line[: width - 1].rsplit(" ", 1)[0] + "…"


class NounGroup(TyperGroup):
    """A noun's group: each verb is listed by the first sentence of its help."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None and command.short_help is None and command.help:
            command.short_help = summary(command.help)
        return command


def usage_name(argument: Any) -> str:
    """An argument as the usage line shows it: its metavar or its name in capitals, `...` when it
    takes several, in brackets when it may be left out (`ENTRY...`, `[GAME]`)."""
    name = argument.metavar or argument.name.upper()
    if argument.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if argument.required or name.startswith("[") else f"[{name}]"


class Command(TyperCommand):
    """A verb whose usage line reads as a shell's convention has it: `match [OPTIONS]
    ENTRIES...`, where typer's own draws a required argument as `{entries}...`, which reads as
    a placeholder left unfilled."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                pieces.append(usage_name(param))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


class Verbs(typer.Typer):
    """A typer app whose verbs are `Command`s (unless one asks for another class)."""

    def command(self, name: str | None = None, *, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(name, cls=cls or Command, **kwargs)


def _group(help: str) -> typer.Typer:
    return Verbs(help=help, no_args_is_help=True, add_completion=False, cls=NounGroup)


def _verb() -> typer.Typer:
    return Verbs(add_completion=False)


bench_app = _group(
    "Benchmarks that print their figures: the engine, the wire, the referee, tournaments and "
    "their schedules, the bots' strength, the analysis, the contest server (docs/performance.md)."
)
replay_app = _group(
    "Game records: verify them, view them as a page or in the terminal, analyse them."
)
referee_app = _group("The referee service.")
token_app = _group("Tokens issued to remote entries.")
referee_app.add_typer(token_app, name="token")
tournament_app = _group("Run tournaments and read their results.")
bot_app = _group("Write and check bots, and compare two versions (did my change help?).")
server_app = _group(
    "The contest server: participants submit bots, a ladder plays them, everyone watches on the "
    "web (docs/server.md)."
)
contest_app = _group(
    "Take part in a contest on a contest server: log in, submit your bot, see its versions and "
    "logs, challenge others, compare your versions (docs/server.md)."
)
demo_app = _verb()
match_app = _verb()
play_app = _verb()
# A participant's verbs were top-level once (`azul-arena login`): those spellings still work,
# hidden, and say where the verb moved (tournaments/commands/participant.py).
MOVED_VERBS = ("login", "submit", "challenge", "submissions", "logs")
moved_apps = {verb: _verb() for verb in MOVED_VERBS}

# The root's names. A verb's help is its command's first line (tests/tournaments/test_cli_start.py
# keeps the two the same).
NOUNS: dict[str, Noun] = {
    "bench": Noun(
        (
            "tournaments.commands.bench",
            "tournaments.commands.bench_server",
            "tournaments.commands.bench_compare",
            "tournaments.commands.bench_analysis",
            "tournaments.commands.bench_outside",
        ),
        bench_app,
        bench_app.info.help or "",
    ),
    "bot": Noun(
        ("tournaments.commands.bot", "tournaments.commands.compare"),
        bot_app,
        bot_app.info.help or "",
    ),
    "contest": Noun(
        ("tournaments.commands.participant",), contest_app, contest_app.info.help or ""
    ),
    "demo": Noun(
        ("tournaments.commands.demo",),
        demo_app,
        "Run a small real round-robin among the reference bots (those that play the ruleset) "
        "and show the leaderboard",
    ),
    "match": Noun(
        ("tournaments.commands.match",),
        match_app,
        "Play one game between real bot processes through the referee: each move in words as it "
        "happens, the table at each new…",
    ),
    "play": Noun(
        ("tournaments.commands.play",),
        play_app,
        "Play a game against a bot in this terminal: the board, your legal moves numbered and in "
        "words; answer with a number or…",
    ),
    "referee": Noun(("tournaments.commands.referee",), referee_app, referee_app.info.help or ""),
    "replay": Noun(
        ("tournaments.commands.replay", "tournaments.commands.analyse"),
        replay_app,
        replay_app.info.help or "",
    ),
    "server": Noun(
        ("tournaments.commands.server",), server_app, server_app.info.help or "", extra="server"
    ),
    "tournament": Noun(
        ("tournaments.commands.tournament",), tournament_app, tournament_app.info.help or ""
    ),
}
NOUNS.update(
    {
        verb: Noun(("tournaments.commands.participant",), verb_app, "", hidden=True)
        for verb, verb_app in moved_apps.items()
    }
)


class LazyGroup(TyperGroup):
    """The root group: a noun's module is imported when the noun is resolved, except while the
    root's own help is drawn, which needs only each noun's name and help."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(NOUNS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        noun = NOUNS.get(cmd_name)
        if noun is None:
            return super().get_command(ctx, cmd_name)
        if self._listing:
            return TyperCommand(name=cmd_name, help=noun.help, hidden=noun.hidden)
        if noun.extra is not None:
            _require(noun.extra, f"`azul-arena {cmd_name}`")
        for module in noun.modules:
            importlib.import_module(module)
        command = typer.main.get_command(noun.app)
        command.name = cmd_name
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def _require(extra: str, what: str) -> None:
    from tournaments.commands.common import Exit, fail
    from tournaments.commands.extras import needs

    message = needs(extra, what)
    if message is not None:
        fail(message, Exit.USAGE)


app = typer.Typer(
    name="azul-arena",
    help="Azul Arena: bots play the Azul family of games under a referee; tournaments rank them."
    "\n\nExample: [bold]azul-arena match greedy mcts[/] (one game, move by move), "
    "[bold]azul-arena demo[/] (a small tournament and its report), [bold]azul-arena bot new "
    "mybot[/] (a bot to start from). Each command has --help with an example.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    cls=LazyGroup,
)


@app.callback()
def _root() -> None:
    # A callback makes the root a group while no noun's module is loaded yet.
    pass
