"""What the RL observation writers of every family share: native buffers and packed counts.

sdk.rl's observations and action masks are written by the families' compiled writers
(referee/engine/<family>/features.py) into librt's `vec` (mypyc's own runtime library): compiled,
`out[i] = x` on a vec is a store into its memory, where the same on a memoryview or a numpy
array is a generic call that boxes the index and the value (about ten times the cost: what the
observation cost before). numpy reads a vec without a copy through the buffer protocol. librt
is a dependency of the package (mypy brings it to the build): a vec works the same in the
plain-Python engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from librt.vecs import vec
from mypy_extensions import u8

if TYPE_CHECKING:  # mypyc reads the annotation; at run time it is a plain int
    from mypy_extensions import i64

# Zeros to slice from (a slice of a vec is one copy of its memory), grown on demand.
_ZEROS: vec[float] = vec[float]()
_MASK_ZEROS: vec[u8] = vec[u8]()


def float_buffer(n: int) -> vec[float]:
    """n floats, all 0.0: a buffer for the writers below."""
    global _ZEROS
    if len(_ZEROS) < n:
        _ZEROS = vec[float]([0.0] * n)
    return _ZEROS[0:n]


def clear_floats(out: vec[float], n: i64) -> None:
    """out[0:n] = 0.0, in place: a buffer used again costs no new memory, where a new one of
    the vectorised env's size (a quarter of a megabyte) is mapped anew and faults in page by
    page as the writers touch it, some four times the writing itself. (A machine-int index:
    an int one costs a conversion a store, four times the store.)"""
    i: i64 = 0
    while i < n:
        out[i] = 0.0
        i += 1


def clear_mask(out: vec[u8], n: i64) -> None:
    """out[0:n] = 0, in place (as clear_floats)."""
    i: i64 = 0
    while i < n:
        out[i] = 0
        i += 1


def mask_buffer(n: int) -> vec[u8]:
    """n bytes, all 0: a buffer for action masks (numpy reads it as int8)."""
    global _MASK_ZEROS
    if len(_MASK_ZEROS) < n:
        _MASK_ZEROS = vec[u8](bytes(n))
    return _MASK_ZEROS[0:n]


def write_packed(out: vec[float], base: i64, packed: int, per_colour: int) -> None:
    """A packed count written as fractions, count / `per_colour`, one colour a cell from
    `out[base]` (only the colours present are written)."""
    while packed:
        count = packed & 255
        if count:
            out[base] = count / per_colour
        packed >>= 8
        base += 1


def write_factories(out: vec[float], base: i64, factories: list[int], colours: int) -> None:
    """Factories' tiles (a code each, 3 bits of count per colour) written as count / 4, one
    row of `colours` cells per factory from `out[base]`: only the colours present. (`factories`
    typed as a list of ints: compiled, the bit arithmetic below is then machine arithmetic, not
    a generic call per operation.)"""
    for f in range(len(factories)):
        code = factories[f]
        cell: i64 = base + colours * f
        while code:  # most factories hold one to four colours
            low = code & 7
            if low:
                out[cell] = low * 0.25
            code >>= 3
            cell += 1
