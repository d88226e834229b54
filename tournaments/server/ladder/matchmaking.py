"""Who plays the next ranked game (Halite's rule, as contest ladders use it).

The seed of the game is the candidate most in need of games: a version still under
`PROVISIONAL_GAMES` games comes first (fewest games first), then the version idle the longest.
Its opponents are drawn among the other participants' versions nearest to it in rating (mu),
so games are informative and a newcomer is placed within its first few games; one version per
participant per game. Pure functions over plain data: the worker supplies the candidates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

PROVISIONAL_GAMES = 10
# Opponents come from this many nearest candidates per seat to fill (some chance in who meets
# whom, so the ladder does not replay the same pairing while ratings sit still).
NEAREST_PER_SEAT = 3


@dataclass(frozen=True)
class Candidate:
    version: int
    participant: int
    mu: float
    games: int
    last_game: datetime | None


def seed_order(c: Candidate) -> tuple[int, int, float]:
    """Sort key: under-played first (fewest games), then the longest idle (never played first)."""
    idle = c.last_game.timestamp() if c.last_game is not None else float("-inf")
    if c.games < PROVISIONAL_GAMES:
        return (0, c.games, idle)
    return (1, 0, idle)


def pick_game(
    candidates: Sequence[Candidate],
    players: int,
    rng: random.Random,
    busy: frozenset[int] = frozenset(),
) -> list[Candidate] | None:
    """The seats of the next game (in a random seat order), or None when fewer than `players`
    participants have a version to play. Versions in `busy` (playing now) are not chosen."""
    free = [c for c in candidates if c.version not in busy]
    if len({c.participant for c in free}) < players:
        return None
    hero = min(free, key=seed_order)
    others = sorted(
        (c for c in free if c.participant != hero.participant),
        key=lambda c: (abs(c.mu - hero.mu), c.version),
    )
    chosen = [hero]
    taken = {hero.participant}
    while len(chosen) < players:
        pool = [c for c in others if c.participant not in taken][:NEAREST_PER_SEAT]
        pick = rng.choice(pool)
        chosen.append(pick)
        taken.add(pick.participant)
    rng.shuffle(chosen)
    return chosen
