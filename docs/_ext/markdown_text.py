"""Text from the code as Markdown that says exactly that text.

The generated reference pages put help texts and .proto comments into MyST, where `*`, `_`, `[`,
`<` or a paragraph that starts with `-` or `1.` would mean something else.
"""

from __future__ import annotations

import re
import textwrap

# CommonMark lets a backslash escape any ASCII punctuation; these are the ones MyST reads as
# emphasis, code, links, HTML, headings, tables, roles, strike-through or entities.
_SPECIAL = frozenset("\\`*_[]<>#|{}~&")
# What at the start of a paragraph would open a list, a definition or a setext heading.
_LEADING_MARK = re.compile(r"^([-+=:])")
_LEADING_NUMBER = re.compile(r"^(\d+)([.)])")
_QUOTED = re.compile(r"`([^`\n]+)`")


def escape(text: str) -> str:
    """`text` with every character MyST would read as markup escaped."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def inline(plain: str) -> str:
    """Plain text as Markdown: what it quotes in backticks (`make install`) as code, the rest
    escaped."""
    pieces = _QUOTED.split(plain)  # text, quoted, text, quoted, ..., text
    return "".join(code(p) if i % 2 else escape(p) for i, p in enumerate(pieces))


def code(text: str) -> str:
    """Inline code showing `text` verbatim, on one line (a backtick in it gets a longer fence)."""
    text = " ".join(text.split())
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def paragraphs(markdown: str) -> list[str]:
    """Markdown cut at its blank lines, each paragraph on one line, none of them read as the
    start of a list, a definition or a heading."""
    found = []
    for block in re.split(r"\n[ \t]*\n", markdown.strip()):
        line = " ".join(block.split())
        if line:
            line = _LEADING_NUMBER.sub(r"\1\\\2", _LEADING_MARK.sub(r"\\\1", line))
            found.append(line)
    return found


def prose(plain: str) -> list[str]:
    """Plain text (a comment) as Markdown blocks: its paragraphs escaped, and a block whose
    lines are all indented (a diagram, an example) kept as it is laid out."""
    blocks = []
    for block in re.split(r"\n[ \t]*\n", plain.strip("\n")):
        lines = block.splitlines()
        if lines and all(line.startswith("  ") for line in lines):
            blocks.append("\n".join(["```text", *textwrap.dedent(block).splitlines(), "```"]))
        else:
            blocks += paragraphs(inline(block))
    return blocks


def definition(term: str, blocks: list[str]) -> str:
    """A definition-list item (MyST's deflist): the term, then its blocks indented under it."""
    body = "\n\n".join(blocks) or "\\-"
    return f"{term}\n: " + body.replace("\n", "\n  ") + "\n"
