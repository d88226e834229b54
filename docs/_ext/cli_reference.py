"""The command-line reference as Markdown, read from the typer app that `azul-arena` runs: every
command its `--help` lists, with its help, usage, arguments and options.

The app loads a noun's module only when the noun is asked for (tournaments/commands/groups.py);
walking the tree asks for each, as `azul-arena NOUN --help` would, and runs no command.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import typer
import typer.main
from markdown_text import code, definition, escape, inline, paragraphs
from rich.text import Text
from typer.core import TyperArgument, TyperGroup


def _children(command: Any, ctx: typer.Context) -> Iterator[tuple[str, Any]]:
    """The visible commands of a group by name, in the order its --help lists them."""
    if isinstance(command, TyperGroup):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield name, sub


def walk(
    command: Any, ctx: typer.Context, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], Any, typer.Context]]:
    """Each visible command under `command` (itself first) with its path of names and context."""
    yield path, command, ctx
    for name, sub in _children(command, ctx):
        yield from walk(sub, typer.Context(sub, info_name=name, parent=ctx), (*path, name))


def help_markdown(text: str, markup: str | None) -> str:
    """A help text as Markdown: rich markup shown as typer shows it, its bold (the example
    commands) as code; markdown passed on; plain text escaped."""
    text = inspect.cleandoc(text)
    if markup == "markdown":
        return text
    if markup != "rich":
        return inline(text)
    rendered = Text.from_markup(text)
    plain = rendered.plain
    bold = sorted(
        (span.start, span.end)
        for span in rendered.spans
        if isinstance(span.style, str) and "bold" in span.style.split()
    )
    parts, at = [], 0
    for start, end in bold:
        if start < at:  # nested or overlapping bold: the outer span already shows it
            continue
        parts += [inline(plain[at:start]), code(plain[start:end])]
        at = end
    parts.append(inline(plain[at:]))
    return "".join(parts)


def _extras(param: Any, ctx: typer.Context) -> str:
    """What --help adds after a parameter's help (default, range, required), as Markdown."""
    record = param.get_help_record(ctx)
    said = record[1] if record else ""
    if param.help and said.startswith(param.help):
        said = said[len(param.help) :]
    said = said.strip()
    if not (said.startswith("[") and said.endswith("]")):
        return ""
    items = []
    for item in said[1:-1].split("; "):
        key, colon, value = item.partition(": ")
        items.append(f"{key}: {code(value)}" if colon and key == "default" else escape(item))
    return f" ({'; '.join(items)})"


def _parameters(command: Any, ctx: typer.Context, markup: str | None) -> list[str]:
    arguments: list[str] = []
    options: list[str] = []
    for param in command.params:  # not get_params: --help is said once, on the page
        record = param.get_help_record(ctx)
        if record is None:  # hidden
            continue
        text = help_markdown(param.help or "", markup) + _extras(param, ctx)
        kind = arguments if isinstance(param, TyperArgument) else options
        kind.append(definition(code(record[0]), paragraphs(text)))
    lines = []
    for title, items in (("Arguments", arguments), ("Options", options)):
        if items:
            lines += [f"**{title}**", "", *items]
    return lines


def _section(path: tuple[str, ...], command: Any, ctx: typer.Context) -> list[str]:
    markup = getattr(command, "rich_markup_mode", None)
    lines = [f"{'#' * (len(path) + 1)} {code(' '.join(path))}", ""] if path else []
    for paragraph in paragraphs(help_markdown(command.help or "", markup)):
        lines += [paragraph, ""]
    usage = " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])
    lines += ["```text", usage, "```", ""]
    children = [
        f"- [{code(' '.join((*path, name)))}](#{'-'.join((*path, name))}): "
        + inline(sub.get_short_help_str(limit=120))
        for name, sub in _children(command, ctx)
    ]
    if children:  # each links to its section: its heading's anchor is its words joined by -
        lines += [*children, ""]
    return [*lines, *_parameters(command, ctx, markup)]


def cli_markdown() -> str:
    """The reference of every visible command of `azul-arena`, as Markdown headed at level 2."""
    from tournaments.commands.groups import app  # what tournaments.cli runs

    root = typer.main.get_command(app)
    ctx = typer.Context(root, info_name=app.info.name or "azul-arena")
    lines: list[str] = []
    for path, command, command_ctx in walk(root, ctx):
        lines += _section(path, command, command_ctx)
    return "\n".join(lines) + "\n"
