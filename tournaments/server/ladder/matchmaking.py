"""Who plays the next ranked game: games that measure, spread over the whole field.

The seed of the game (the hero) is the candidate most in need of games: a version still under
`PROVISIONAL_GAMES` games comes first (fewest games, those in flight counted, first), then the
one with the fewest games in flight, then the one idle the longest. Its opponents are drawn for
information, as `tournament run --schedule adaptive` draws them: TrueSkill's match quality
(close and uncertain ratings teach the most), one version per participant per game.

Two rules keep the field mixed however fast or slow its bots are (a ladder that pairs whoever
happens to be free lets fast bots meet only fast bots):

- **Spread**: no opponent takes more than `SPREAD` times its even share of a version's games
  (either side's) while another opponent is under it; early on this makes every version meet
  every other once before any pair meets twice.
- **Games at once**: a version may play `per_version` games at the same time (its own bot
  processes in each), so a slow bot busy in one game is still there to be met. When every
  opponent the spread allows is at that limit, the hero waits for one (another hero is tried).

Pure functions over plain data: the worker supplies the candidates and who met whom.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tournaments.domain.ratings import make_env

PROVISIONAL_GAMES = 10
# Opponents come from this many best-quality candidates per seat to fill (some chance in who
# meets whom, so the ladder does not replay the same pairing while ratings sit still).
NEAREST_PER_SEAT = 3
# The most a pair may take of either version's games, over an even split of its opponents.
SPREAD = 1.3
_BETA2 = 2 * make_env().beta ** 2


@dataclass(frozen=True)
class Candidate:
    version: int
    participant: int
    mu: float
    games: int
    last_game: datetime | None
    sigma: float = 25 / 3
    playing: int = 0  # its games in flight (here or at another worker)


def seed_order(c: Candidate) -> tuple[int, int, int, float]:
    """Sort key: under-played first (fewest games, those in flight counted), then the fewest
    games in flight, then the longest idle (never played first)."""
    idle = c.last_game.timestamp() if c.last_game is not None else float("-inf")
    if c.games < PROVISIONAL_GAMES:
        return (0, c.games + c.playing, c.playing, idle)
    return (1, 0, c.playing, idle)


def quality(a: Candidate, b: Candidate) -> float:
    """TrueSkill's two-player match quality (the closed form `pairing.Field.quality` uses)."""
    spread = _BETA2 + a.sigma**2 + b.sigma**2
    return math.sqrt(_BETA2 / spread) * math.exp(-((a.mu - b.mu) ** 2) / (2 * spread))


def within_share(met: int, games: int, opponents: int, players: int) -> bool:
    """Whether one more game between a version of `games` games and an opponent it met `met`
    times keeps that opponent within `SPREAD` times its even share (`opponents` to share)."""
    even = (games + 1) * (players - 1) / max(1, opponents)
    return met + 1 <= max(1.0, SPREAD * even)


def pick_game(  # the field, and what the worker knows of it
    candidates: Sequence[Candidate],
    players: int,
    rng: random.Random,
    busy: frozenset[int] = frozenset(),
    met: Callable[[int], Mapping[int, int]] | None = None,
    per_version: int = 1,
) -> list[Candidate] | None:
    """The seats of the next game (in a random seat order), or None when no game should start
    now: fewer than `players` participants have a version free, or every hero's wanted
    opponents are busy. A version in `busy` or with `per_version` games in flight is not
    chosen; `met(version)` gives how often it met each other version (None: nobody met)."""
    free = [c for c in candidates if c.version not in busy and c.playing < per_version]
    if len({c.participant for c in free}) < players:
        return None
    met_of = met or (lambda _version: {})
    for hero in sorted(free, key=seed_order):
        chosen = _opponents(hero, candidates, free, players, met_of(hero.version), rng)
        if chosen is not None:
            rng.shuffle(chosen)
            return chosen
    return None


def _opponents(
    hero: Candidate,
    field: Sequence[Candidate],
    free: Sequence[Candidate],
    players: int,
    met: Mapping[int, int],
    rng: random.Random,
) -> list[Candidate] | None:
    """`hero` and the opponents drawn for it, or None when the ones the spread rule allows are
    all busy (it waits for them)."""
    rivals = [c for c in field if c.participant != hero.participant]
    n_hero = len({c.participant for c in rivals})

    def fair(c: Candidate) -> bool:
        n_c = len({o.participant for o in field if o.participant != c.participant})
        seen = met.get(c.version, 0)
        return within_share(seen, hero.games + hero.playing, n_hero, players) and within_share(
            seen, c.games + c.playing, n_c, players
        )

    allowed = [c for c in rivals if fair(c)]
    free_ids = {c.version for c in free}
    chosen, taken = [hero], {hero.participant}
    while len(chosen) < players:
        open_ = [c for c in allowed if c.participant not in taken]
        pool = [c for c in open_ if c.version in free_ids]
        if not pool:
            if open_:
                return None  # the opponents it should meet are playing: it waits for them
            # Every opponent is at its share (a small field): the least met of the free ones.
            pool = [c for c in free if c.participant not in taken]
            if not pool:
                return None
            least = min(met.get(c.version, 0) for c in pool)
            pool = [c for c in pool if met.get(c.version, 0) == least]
        best = sorted(pool, key=lambda c: (-quality(hero, c), c.version))[:NEAREST_PER_SEAT]
        pick = rng.choices(best, weights=[max(quality(hero, c), 1e-12) for c in best])[0]
        chosen.append(pick)
        taken.add(pick.participant)
    return chosen
