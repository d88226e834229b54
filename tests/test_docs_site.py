"""The manual as a site: Sphinx builds docs/ with no warning (a link to a page or a heading that
is not there is one), and the command-line and protocol references it writes from the code hold
every command with its options' help, and every service, message, field, enum and value.

The expectations are read from the code's own declarations (the typer apps' registered
commands, the .proto text), not from the walk that writes the pages. Links out of the site are
not fetched (no network here or in CI)."""

from __future__ import annotations

import html
import importlib
import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main
from rich.text import Text

from tournaments.commands.groups import NOUNS, app

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto" / "azul_arena" / "v1"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("sphinx", "myst_parser", "furo"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(
                f"{module} is not installed (it is in the docs extras: pip install -e '.[docs]', "
                "or make install)"
            )
    out = tmp_path_factory.mktemp("site")
    # make docs's flags; the doctrees beside the pages, so that nothing is reused from a build
    sphinx = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html"]
    proc = subprocess.run(
        [*sphinx, "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, f"make docs would fail:\n{proc.stdout}{proc.stderr}"
    assert "WARNING" not in proc.stderr, proc.stderr
    return out / "html"


def section(page: Path, anchor: str) -> str:
    """The words of the section `anchor` up to the next section (all of a leaf's section) as a
    reader sees them: tags dropped, entities read, spaces folded."""
    pattern = rf'<section id="{anchor}">(.*?)(?=<section id=|</article>)'
    found = re.search(pattern, page.read_text(), re.S)
    assert found, f"no section #{anchor} in {page.name}"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def test_every_manual_page_is_on_the_site(site: Path) -> None:
    pages = [p.relative_to(ROOT / "docs") for p in (ROOT / "docs").rglob("*.md")]
    pages = [p for p in pages if p.parts[0] != "_build"]
    missing = [str(p) for p in pages if not (site / p.with_suffix(".html")).exists()]
    assert pages and not missing


def declared(app: typer.Typer, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every visible command of a noun's app by path, as its module registered them."""
    yield path
    if len(path) == 1 and len(app.registered_commands) == 1 and not app.registered_groups:
        return  # a noun's one-verb app is that verb (`match`); a sub-group stays a group
    for command in app.registered_commands:
        if not command.hidden:
            assert command.name, command.callback
            yield (*path, command.name)
    for group in app.registered_groups:
        assert group.name and group.typer_instance
        yield from declared(group.typer_instance, (*path, group.name))


def commands() -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, noun in NOUNS.items():
        for module in noun.modules:
            importlib.import_module(module)
        if not noun.hidden:
            found += declared(noun.app, (name,))
    return found


def test_the_cli_reference_has_every_command_and_no_hidden_one(site: Path) -> None:
    page = site / "reference" / "cli.html"
    ids = set(re.findall(r'<section id="([^"]+)"', page.read_text()))
    expected = {"-".join(path) for path in commands()}
    assert {"tournament-run", "referee-token-new", "server-contest-create"} <= expected
    assert expected - ids == set()
    hidden = {name for name, noun in NOUNS.items() if noun.hidden}
    assert hidden and hidden & ids == set()


def test_each_command_s_section_shows_its_options_and_their_help(site: Path) -> None:
    """The help of every visible parameter as --help renders its markup (bold, escaped
    brackets), with its option names, in the section of its command."""
    page = site / "reference" / "cli.html"
    root = typer.main.get_command(app)
    checked = 0
    for path in commands():
        command: Any = root
        ctx = typer.Context(root, info_name="azul-arena")
        for name in path:
            command = command.get_command(ctx, name)
            ctx = typer.Context(command, info_name=name, parent=ctx)
        if hasattr(command, "list_commands"):
            continue  # a group: its verbs are checked as leaves
        words = section(page, "-".join(path))
        for param in command.params:
            if getattr(param, "hidden", False):
                continue
            for opt in param.opts if param.param_type_name == "option" else ():
                assert opt in words, (path, opt)
            said = " ".join(Text.from_markup(param.help or "").plain.replace("`", "").split())
            assert said in words, (path, param.name, said)
            checked += 1
    assert checked > 300  # every verb's parameters, not a few


def test_the_proto_reference_has_every_definition_field_and_value(site: Path) -> None:
    page = site / "reference" / "proto.html"
    for proto in sorted(PROTO.glob("*.proto")):
        text = re.sub(r"//.*", "", proto.read_text())
        blocks = re.findall(r"^(message|enum|service)\s+(\w+)\s*\{(.*?)^\}", text, re.M | re.S)
        assert blocks, proto
        for kind, name, body in blocks:
            words = section(page, f"{kind}-{name.lower()}")
            members = re.findall(r"(\w+)\s*=\s*\d+", body) + re.findall(r"rpc\s+(\w+)", body)
            assert members, (proto.name, name)
            assert [m for m in members if m not in words] == [], (proto.name, name)


def test_a_proto_comment_is_on_the_site(site: Path) -> None:
    words = section(site / "reference" / "proto.html", "message-matchsettings")
    assert "Grace margin added to every limit for transport jitter, in milliseconds." in words
    assert "options map<string, string> = 13" in words
