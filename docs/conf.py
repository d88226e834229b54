"""Sphinx's settings for the manual's site: `make docs` builds it into docs/_build/html."""

from __future__ import annotations

import sys
from pathlib import Path

# The extension that writes the CLI and protocol references from the code (docs/_ext/).
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "Azul Arena"
html_title = "Azul Arena"
extensions = ["myst_parser", "generated_pages"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_ext"]
html_theme = "furo"
html_show_copyright = False

# Every heading down to the CLI reference's verbs of a sub-noun (`referee token new`, level 4)
# gets GitHub's anchor, so that `page.md#heading` links work on the site as on GitHub; MyST
# warns about one that leads nowhere, and -W makes that an error.
myst_heading_anchors = 4
# Definition lists: the references' options, fields and values.
myst_enable_extensions = ["deflist"]
# A reference that does not resolve is a warning too (make docs runs with -W).
nitpicky = True
# Options are written `--db`, in prose too: no typographic dashes or quotes.
smartquotes = False
