"""The help a newcomer reads: an example at the root, usage lines written as a shell's convention
has them, and option help that names keys as the docs and the engine do."""

from __future__ import annotations

import re

import pytest
import typer.main
from typer.core import TyperGroup
from typer.testing import CliRunner

from tournaments.commands.common import OPTION_HELP, WILD_ORDER_HELP, check_ruleset
from tournaments.commands.groups import NOUNS, app, usage_name

runner = CliRunner()


def _flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())  # rich's box and wrapping undone


def test_the_root_help_shows_an_example() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "Example: azul-arena match greedy mcts" in _flat(result.stdout)


def _verbs() -> list[list[str]]:
    """Every verb's words (`["bot", "new"]`, `["match"]`), each noun loaded as the root loads it."""
    paths = []
    for name, noun in sorted(NOUNS.items()):
        if noun.hidden:
            continue
        runner.invoke(app, [name, "--help"])  # the noun's modules register its verbs
        command = typer.main.get_command(noun.app)
        stack: list[tuple[list[str], object]] = [([name], command)]
        while stack:
            words, cmd = stack.pop()
            if isinstance(cmd, TyperGroup):
                stack += [([*words, sub], c) for sub, c in cmd.commands.items() if not c.hidden]
            else:
                paths.append(words)
    return paths


VERBS = _verbs()


@pytest.mark.parametrize("words", VERBS, ids=" ".join)
def test_a_usage_line_names_its_arguments_in_capitals(words: list[str]) -> None:
    result = runner.invoke(app, [*words, "--help"])
    assert result.exit_code == 0, result.output
    usage = next(line for line in result.stdout.splitlines() if "Usage:" in line)
    # typer's own draws a required argument as {entries}...: read as a placeholder left unfilled
    assert "{" not in usage and "[[" not in usage and "...]..." not in usage, usage
    for argument in re.findall(r"\[OPTIONS\] (.*)$", usage.strip()):
        assert argument == argument.upper(), usage


def test_usage_names() -> None:
    class Arg:
        def __init__(self, name: str, metavar: str | None, nargs: int, required: bool) -> None:
            self.name, self.metavar, self.nargs, self.required = name, metavar, nargs, required

    assert usage_name(Arg("entries", None, -1, True)) == "ENTRIES..."
    assert usage_name(Arg("entries", "ENTRY...", -1, False)) == "[ENTRY...]"
    assert usage_name(Arg("game", "[GAME]", 1, False)) == "[GAME]"
    assert usage_name(Arg("new", "NEW", 1, True)) == "NEW"


def test_the_option_help_writes_a_key_as_the_docs_and_the_engine_do() -> None:
    assert "wild_order=GOPYBR" in OPTION_HELP and "--option wild_order=" in WILD_ORDER_HELP
    assert check_ruleset("pavilion", 2, ["wild_order=GOPYBR"]) == {"wild_order": "GOPYBR"}
