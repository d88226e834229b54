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


def render(  # keyword-only parts of a page
    template: str,
    *,
    title: str,
    styles: list[str],
    scripts: list[str],
    blocks: dict[str, Any],
    inline_scripts: Sequence[str] = (),
) -> str:
    """The page `template` with its title, the named styles and scripts inlined (then
    `inline_scripts`, given as text: a game family's viewer renderer), and each of `blocks`
    embedded as a JSON script element of that id."""
    data = "\n".join(
        f'<script type="application/json" id="{html.escape(key)}">{script_json(value)}</script>'
        for key, value in blocks.items()
    )
    fill = {
        "/*STYLE*/": "\n".join(asset(s) for s in styles),
        "<!--DATA-->": data,
        "/*SCRIPT*/": "\n".join([*(asset(s) for s in scripts), *inline_scripts]),
        "{{TITLE}}": html.escape(title),
    }
    # One pass: text put in (a bot's name, say) is never read again as a marker.
    return _MARKERS.sub(lambda m: fill[m.group(0)], asset(template))
