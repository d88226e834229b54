"""A tiny random-number generator whose whole state is one int.

`random.Random` would do, but copying its state costs microseconds, and a search bot copies the
game state millions of times. Here the generator state is an int stored in the game, so a copy
is free and every copy is independent and reproducible.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
# Knuth's MMIX linear congruential constants; the high 32 bits are used, never the weak low ones.
_MUL = 6364136223846793005
_INC = 1442695040888963407


def seed_state(seed: int) -> int:
    """Spread any int seed over 64 bits (splitmix64), so that nearby seeds give unrelated games."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def step(state: int) -> int:
    """The next generator state."""
    return (state * _MUL + _INC) & _MASK


def below(state: int, n: int) -> int:
    """A number in range(n) read from a generator state (n < 2**32)."""
    return ((state >> 32) * n) >> 32
