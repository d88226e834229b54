"""The manual reads as a manual: every relative link in README.md and docs/ leads to a file and,
where it names one, a heading that exists; no manual page runs past 500 lines (run-by-run
research goes in docs/notes/); and no page names an issue, which a reader has no way to see."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
MANUAL = sorted((ROOT / "docs").glob("*.md"))  # the notes below docs/notes/ are records
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ISSUE = re.compile(r"\b[Ii]ssues? \d+|\(#\d+\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            base = slug(line.lstrip("#"))
            name, n = base, 0
            while name in found:  # a repeated heading gets -1, -2, ...
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_a_heading_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no file {where.relative_to(ROOT)}")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading #{anchor} in {where.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("page", MANUAL, ids=lambda p: p.name)
def test_a_manual_page_stays_readable_to_its_end(page: Path) -> None:
    lines = len(page.read_text().splitlines())
    assert lines <= 500, f"{page.name} has {lines} lines: move its records to docs/notes/"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_names_an_issue(page: Path) -> None:
    named = [m.group(0) for m in ISSUE.finditer(page.read_text())]
    assert not named, f"{page.name} names {named}"


def test_a_heading_s_anchor_is_github_s() -> None:
    assert slug(" Starter kits in other languages (`sdk/kits/`)") == (
        "starter-kits-in-other-languages-sdkkits"
    )
    assert slug("The gray wall's learned value") == "the-gray-walls-learned-value"
