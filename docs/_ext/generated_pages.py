"""A Sphinx extension that writes the reference pages from the code as the site is built.

docs/reference/cli.md and docs/reference/proto.md are committed with a title, a few words and a
marker line; at each build the marker is replaced by the reference generated from the typer app
(cli_reference) or from proto/ (proto_reference), so the pages never say what the code no
longer does. Both are read again on every build: Sphinx watches their files, not the code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError


def _cli() -> str:
    from cli_reference import cli_markdown

    return cli_markdown()


def _proto() -> str:
    from proto_reference import proto_markdown

    return proto_markdown()


GENERATED: dict[str, Callable[[], str]] = {"reference/cli": _cli, "reference/proto": _proto}


def marker(docname: str) -> str:
    """The line of a generated page that its reference replaces."""
    return f"<!-- generated: {docname} -->"


def _fill(app: Sphinx, docname: str, source: list[str]) -> None:
    make = GENERATED.get(docname)
    if make is None:
        return
    line = marker(docname)
    if source[0].count(line) != 1:
        raise ExtensionError(
            f"docs/{docname}.md must hold the line {line!r} once: the generated reference "
            "goes there"
        )
    source[0] = source[0].replace(line, make())


def _outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    return [docname for docname in GENERATED if docname in env.found_docs]


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _fill)
    app.connect("env-get-outdated", _outdated)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
