"""The site's icon: four Azul tiles (blue, yellow, red, black), drawn here as a PNG so that no
image file needs shipping. Browsers ask every page's /favicon.ico (the admin's too, which names
no icon): without it each page logs a failed request."""

from __future__ import annotations

import struct
import zlib
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

SIZE = 32
_TILES = [(0x1F, 0x6F, 0xD1), (0xF0, 0xB8, 0x24), (0xD6, 0x34, 0x3B), (0x26, 0x28, 0x2C)]


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@cache
def png() -> bytes:
    """A SIZE x SIZE RGBA picture: a 2x2 grid of tiles with a transparent gap between them."""
    half, gap = SIZE // 2, 2
    rows = []
    for y in range(SIZE):
        row = bytearray([0])  # no filter
        for x in range(SIZE):
            inside = (
                gap // 2 <= x % half < half - gap // 2 and gap // 2 <= y % half < half - gap // 2
            )
            r, g, b = _TILES[2 * (y // half) + x // half]
            row += bytes([r, g, b, 255 if inside else 0])
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(png(), content_type="image/png")
