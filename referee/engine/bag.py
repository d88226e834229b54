"""The bag every family draws its tiles from, and the check of a draw read from a record.

A bag is a packed int: the tiles of colour c are counted in bits 8c to 8c + 7, so a copy of the
game copies one int, and which tile comes out depends on the counts alone, never on an order.
When the bag runs out, the tiles set aside (classic's box lid, Summer Pavilion's depot; here
"the refill") are poured in, and drawing goes on; when both are empty, fewer tiles are drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from referee.engine.errors import RecordError

MAX_COLOURS: Final = 6
ONE: Final = tuple(1 << (8 * c) for c in range(MAX_COLOURS))  # one tile of colour c, packed


def packed_total(packed: int) -> int:
    """How many tiles a packed count holds."""
    n = 0
    while packed:
        n += packed & 255
        packed >>= 8
    return n


def draw(bag: int, refill: int, words: Sequence[int], count: int) -> tuple[list[int], int, int]:
    """Draw up to `count` tiles, one random 32-bit word each: the colours drawn, then what the
    bag and the refill hold afterwards. A word picks tile `(word * n) >> 32` of the n in the bag,
    counted colour by colour."""
    n = packed_total(bag)
    out = []
    for k in range(count):
        if not n:
            if not refill:
                break
            bag, refill = refill, 0
            n = packed_total(bag)
        j = (words[k] * n) >> 32
        c = 0
        while True:
            have = (bag >> (8 * c)) & 255
            if j < have:
                break
            j -= have
            c += 1
        bag -= ONE[c]
        n -= 1
        out.append(c)
    return out, bag, refill


def take(
    bag: int,
    refill: int,
    drawn: Sequence[int],
    count: int,
    *,
    what: str,
    refill_name: str,
    colour_names: Sequence[str],
    round: int | None = None,
) -> tuple[int, int]:
    """Take the recorded colours `drawn` (where `count` were to be drawn) out of the bag, pouring
    the refill in when the bag runs out; what the bag and the refill hold afterwards. RecordError
    (naming `what` and `round`) when the bag and the refill could not have given those tiles."""

    def refuse(message: str) -> RecordError:
        return RecordError(f"{what}: {message}", round=round)

    packed = 0
    for c in drawn:
        packed += ONE[c]
    total = len(drawn)
    if total > count:
        raise refuse(f"{total} tiles drawn where {count} were to be drawn")
    in_bag = packed_total(bag)
    if total <= in_bag:
        for c, name in enumerate(colour_names):
            if (packed >> (8 * c)) & 255 > (bag >> (8 * c)) & 255:
                raise refuse(
                    f"{(packed >> (8 * c)) & 255} {name} tiles drawn but the bag holds only "
                    f"{(bag >> (8 * c)) & 255}"
                )
        if total < count and (total < in_bag or refill):
            raise refuse(
                f"{total} tiles drawn where {count} were to be drawn, although the bag or the "
                f"{refill_name} still held tiles"
            )
        return bag - packed, refill
    # The bag ran out: all of it was drawn, then the refill was poured in and drawing went on.
    for c, name in enumerate(colour_names):
        need = ((packed >> (8 * c)) & 255) - ((bag >> (8 * c)) & 255)
        if need < 0 or need > (refill >> (8 * c)) & 255:
            raise refuse(
                f"{(packed >> (8 * c)) & 255} {name} tiles drawn but the bag "
                f"({(bag >> (8 * c)) & 255}) and the {refill_name} "
                f"({(refill >> (8 * c)) & 255}) cannot give that many"
            )
    rest = refill - (packed - bag)
    if total < count and rest:
        raise refuse(
            f"{total} tiles drawn where {count} were to be drawn, although the "
            f"{refill_name} still held tiles"
        )
    return rest, 0
