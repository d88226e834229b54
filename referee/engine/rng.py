"""The game's random numbers, whose whole state is one int.

`random.Random` would do, but copying its state costs microseconds, and a search bot copies the
game state millions of times. Here the generator state is an int stored in the game, so a copy is
free and every copy is independent and reproducible. Chance comes once a round (the deal): each
deal advances the state once and expands it with SHAKE-128 into as many 32-bit words as it draws
tiles, far cheaper than a big-int generator step per tile.
"""

from __future__ import annotations

from hashlib import shake_128
from struct import Struct
from typing import Final

_MASK: Final = (1 << 64) - 1
# Knuth's MMIX linear congruential constants: the state only needs a long period; the bits
# actually used come out of SHAKE-128.
_MUL: Final = 6364136223846793005
_INC: Final = 1442695040888963407


def seed_state(seed: int) -> int:
    """Spread any int seed over 64 bits (splitmix64), so that nearby seeds give unrelated games."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def step(state: int) -> int:
    """The next generator state."""
    return (state * _MUL + _INC) & _MASK


# Unpackers for the word counts a deal draws (up to 9 factories of 4 tiles), made once.
_UNPACK: Final = [Struct(f"<{n}I") for n in range(37)]


def words(state: int, count: int) -> tuple[int, ...]:
    """`count` random 32-bit words drawn from a generator state, in one hash call. A tile is
    drawn from n as `(word * n) >> 32`: the bias, below n / 2**32, is far below measurable."""
    return _UNPACK[count].unpack(shake_128(state.to_bytes(8, "little")).digest(4 * count))
