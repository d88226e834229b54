"""A real headless chromium for the page tests (selenium + Debian's chromium-driver).

Tests skip with the reason when chromium, its driver or selenium is missing. One browser serves
a whole test module (starting one costs a second or two).
"""

from __future__ import annotations

import shutil
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

# How long a test waits for what a page is to show after an action (a click's navigation, a
# self-refreshing page's next swap) before it fails: as long as a page may take to load
# (tournaments.web.browser.start). A bound only a broken page reaches; a loaded 2-core CI
# machine takes seconds where a quiet one takes tenths.
PAGE_WAIT = 60.0

# How far a chart's lines are shown, in the drawing's units (600 wide): where its curtain's
# left edge is (SHOWN(box) for a page's script).
CHART_SHOWN = """
function SHOWN(box) {
  var area = box.querySelector('.veil').getBoundingClientRect();
  var curtain = box.querySelector('.curtain').getBoundingClientRect();
  return 600 * (curtain.left - area.left) / area.width;
}
"""


def chromium_browser() -> Iterator[Any]:
    """A selenium driver on the system chromium (a generator for a module-scoped fixture)."""
    from tournaments.web import browser

    why = browser.missing()
    if why is not None:
        pytest.skip(why)
    profile = tempfile.mkdtemp(prefix="azul-chromium-")
    driver = browser.start(Path(profile))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def fresh(driver: Any, read: Callable[[Any], T], attempts: int = 5) -> T:
    """`read(driver)` on a page that swaps parts of itself every few seconds (htmx): read again
    when a swap made an element stale between finding it and reading it."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(attempts - 1):
        try:
            return read(driver)
        except StaleElementReferenceException:
            continue
    return read(driver)


def console_errors(driver: Any) -> list[str]:
    """The page's console messages at level SEVERE since the last call."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def png_pixels(png: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Decode an 8-bit RGB/RGBA non-interlaced PNG (what chromium writes): width, height, and
    the RGB pixels. Enough to tell a drawn board from a blank one without an image library."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    height = channels = 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        body = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"unexpected PNG type {depth}/{colour}"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    pixels = []
    for y in range(height):
        start = y * (stride + 1)
        kind_byte, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind_byte == 1:
                line[i] = (line[i] + a) & 255
            elif kind_byte == 2:
                line[i] = (line[i] + b) & 255
            elif kind_byte == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind_byte == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        pixels.extend(tuple(line[x : x + 3]) for x in range(0, stride, channels))
        prev = line
    return width, height, pixels  # type: ignore[return-value]


def drawn_fraction(png: bytes) -> tuple[float, int]:
    """How much of a screenshot differs from its most common colour, and how many colours it
    has: (0.0, 1) is a blank picture."""
    _, _, pixels = png_pixels(png)
    counts: dict[tuple[int, int, int], int] = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    background = max(counts.values())
    return 1 - background / len(pixels), len(counts)
