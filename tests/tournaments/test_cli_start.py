"""The command line starts at once and loads only what a command uses: `azul-arena --help` imports
no noun's module, a bot author's commands import none of the server's, the cluster's or the RL
extras' packages, and a command whose extra is missing says which to install."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
import typer.core
import typer.main
from typer.testing import CliRunner

from tournaments.commands.extras import missing, needs
from tournaments.commands.groups import NOUNS, app, summary

EXTRAS_PACKAGES = (
    "django",
    "psycopg",
    "gunicorn",
    "dask",
    "distributed",
    "gymnasium",
    "pettingzoo",
)


def loaded_after(argv: list[str]) -> list[str]:
    """The top-level packages in sys.modules after running `azul-arena ARGV` in a fresh process."""
    code = textwrap.dedent(
        f"""
        import json, runpy, sys
        sys.argv = ["azul-arena", *{argv!r}]
        try:
            runpy.run_module("tournaments.cli", run_name="__main__")
        except SystemExit as exit:
            assert exit.code in (0, None), exit.code
        print(json.dumps(sorted(sys.modules)))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return list(json.loads(result.stdout.strip().splitlines()[-1]))


def test_the_root_help_imports_no_noun() -> None:
    modules = loaded_after(["--help"])
    loaded = [m for n in NOUNS.values() for m in n.modules if m in modules]
    assert loaded == []
    assert not [
        m for m in modules if m.startswith(("referee.engine", "grpc", "tournaments.domain.store"))
    ]


def test_the_root_help_builds_no_verb() -> None:
    # typer checks a verb's parameters with pydantic only when it builds the verb: the root's
    # list is names and helps (LazyGroup), and nothing of the referee's event loop either.
    modules = loaded_after(["--help"])
    assert not [m for m in modules if m.split(".")[0] in ("pydantic", "asyncio", "sqlite3")]


# What a verb loads when it runs, not when its noun lists its verbs: the rules engine and the
# bots (about 0.1 s of CPU), gRPC, the tournament store, the compliance run, the extras.
RUN_TIME = ("referee.engine", "bots", "grpc", "tournaments.domain.store", "sqlite3")


@pytest.mark.parametrize("name", sorted(n for n, noun in NOUNS.items() if not noun.hidden))
def test_a_noun_s_help_loads_nothing_a_verb_runs_with(name: str) -> None:
    modules = loaded_after([name, "--help"])
    late = [m for m in modules if m.startswith(RUN_TIME) or m.split(".")[0] in EXTRAS_PACKAGES]
    assert late == []


def test_a_bot_author_s_commands_need_no_extra() -> None:
    modules = loaded_after(["match", "random", "greedy", "--seed", "3", "--isolation", "none"])
    assert "referee.arena" in modules  # the match did run through the referee
    assert [m for m in modules if m.split(".")[0] in EXTRAS_PACKAGES] == []


def test_the_root_lists_every_noun_with_its_help() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())  # rich's box and wrapping undone
    for name, noun in NOUNS.items():
        if not noun.hidden:
            assert f"{name} {noun.help}" in text


@pytest.mark.parametrize("name", sorted(NOUNS))
def test_each_noun_loads_and_the_root_lists_it_by_its_own_help(name: str) -> None:
    result = CliRunner().invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    noun = NOUNS[name]
    command = typer.main.get_command(noun.app)
    if noun.hidden:  # a former spelling: not listed, its help is the verb's
        assert command.hidden
        return
    assert command.help is not None
    # A noun is listed by its group's help; a verb without a noun by its help's first sentence.
    is_group = isinstance(command, typer.core.TyperGroup)
    assert noun.help == (command.help if is_group else summary(command.help))


def test_an_unknown_noun_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["tournaments"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_summary_is_the_first_sentence_cut_at_a_word() -> None:
    assert summary("Play one match.\n\nMore words.") == "Play one match"
    assert summary("Run a tournament (round-robin),\nresumably. And more.") == (
        "Run a tournament (round-robin), resumably"
    )
    cut = summary("word " * 40, width=30)
    assert cut.endswith("…") and len(cut) <= 30 and " wor…" not in cut


def test_a_missing_extra_is_named_with_the_command_that_installs_it() -> None:
    requirements = [
        "grpcio>=1.60",
        'django>=5.0; extra == "server"',
        'surely-not-installed-azul-dist>=1; extra == "server"',
        'numpy>=1; extra == "rl"',
    ]
    assert missing("server", requirements) == ["surely-not-installed-azul-dist"]
    message = needs("server", "`azul-arena server`", requirements)
    assert message is not None
    assert "[server] extra" in message and "surely-not-installed-azul-dist" in message
    assert "pip install 'azul-arena[server]'" in message
    assert needs("cluster", "x", requirements) is None  # nothing of it listed, nothing missing
