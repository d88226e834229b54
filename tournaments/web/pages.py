"""Fill a page template: inline its styles and scripts and embed its data as JSON.

Each page is one template with the data embedded once, as JSON, so a page can never say
something its record does not: every number drawn comes from that block. Pages open from
file:// with no network (no CDN, no server).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

_MARKERS = re.compile(r"/\*STYLE\*/|<!--DATA-->|/\*SCRIPT\*/|\{\{TITLE\}\}")


def asset(name: str) -> str:
    """The text of one file of this package (a template, script or style)."""
    return resources.files("tournaments.web").joinpath(name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """`data` as JSON that is safe inside a <script type="application/json"> element."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    # "</script" or "<!--" inside the data must not end or confuse the element.
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@dataclass(frozen=True)
class Parts:
    """A page's parts, for another site's page to embed (the contest server's, inside its own
    header and navigation): its styles, its data as JSON script elements, its scripts."""

    style: str
    data: str
    script: str


def parts(
    *,
    styles: list[str],
    scripts: list[str],
    blocks: dict[str, Any],
    inline_scripts: Sequence[str] = (),
) -> Parts:
    """The named styles and scripts of this package (then `inline_scripts`, given as text: a
    game family's viewer renderer), and each of `blocks` as a JSON script element of that id."""
    return Parts(
        style="\n".join(asset(s) for s in styles),
        data="\n".join(
            f'<script type="application/json" id="{html.escape(key)}">{script_json(value)}</script>'
            for key, value in blocks.items()
        ),
        script="\n".join([*(asset(s) for s in scripts), *inline_scripts]),
    )


def render(  # keyword-only parts of a page
    template: str,
    *,
    title: str,
    styles: list[str],
    scripts: list[str],
    blocks: dict[str, Any],
    inline_scripts: Sequence[str] = (),
) -> str:
    """The page `template` with its title and its `parts` in place."""
    page = parts(styles=styles, scripts=scripts, blocks=blocks, inline_scripts=inline_scripts)
    fill = {
        "/*STYLE*/": page.style,
        "<!--DATA-->": page.data,
        "/*SCRIPT*/": page.script,
        "{{TITLE}}": html.escape(title),
    }
    # One pass: text put in (a bot's name, say) is never read again as a marker.
    return _MARKERS.sub(lambda m: fill[m.group(0)], asset(template))
