"""The command modules share through public names: what two commands use lives in
tournaments/commands/common.py (or a room below), never as one command's private `_name` that
another imports."""

from __future__ import annotations

import ast
from pathlib import Path

import tournaments.commands

COMMANDS = Path(tournaments.commands.__file__).parent


def private_imports(source: str) -> list[str]:
    """`module._name` for each private name `source` imports from a tournaments module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tournaments."):
            found += [
                f"{node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def test_no_command_imports_another_module_s_private_names() -> None:
    offenders = {
        str(path.relative_to(COMMANDS)): names
        for path in sorted(COMMANDS.rglob("*.py"))
        if (names := private_imports(path.read_text()))
    }
    assert offenders == {}


def test_a_private_import_is_found() -> None:
    # The check above is only worth something if it finds one, at the top or inside a function.
    source = (
        "from tournaments.commands.common import fail\n"
        "def run():\n"
        "    from tournaments.commands.tournament import _reading, print_report\n"
    )
    assert private_imports(source) == ["tournaments.commands.tournament._reading"]
