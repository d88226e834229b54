"""Pairing from results: who meets whom next in adaptive and Swiss tournaments.

Both work round by round on a `Field`, the state folded from every finished game in schedule
order (TrueSkill ratings, games, Swiss points, who met whom). A round is a set of disjoint
groups of `players` entries; nothing random is involved, so the same stored results always
give the same next round (ties are broken by a hash of the tournament seed and the name, not
by the alphabet, so neighbours in the entry list are not always paired first).

- **Adaptive**: entries short of the minimum number of games choose first (fewest games
  first), then the most uncertain (largest sigma). Each picks, among the entries nearest to
  it in rating, the partners with the best TrueSkill match quality (close and uncertain
  ratings: the games that teach the most), a repeat meeting counting for less.
- **Swiss**: standings by points (1 for first place, 0 for last, shared places share the
  points), then rating; each entry meets the next ones in the standings it has met the
  least.

An entry that cannot be placed in a full group sits out the round: the one with the most games
(the least recently rested), so byes go round.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.domain.ratings import Ratings

# How many neighbours in rating order an adaptive pick looks at on each side: wide enough to
# find an uncertain partner, narrow enough to stay O(entries) per round.
NEIGHBOURS = 12


def tiebreak(seed: int, name: str) -> int:
    """A stable, seed-dependent order among equals."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{name}".encode()).digest()[:8], "big")


@dataclass
class Field:
    """What pairing needs to know about every entry, folded from finished games."""

    seed: int
    ratings: Ratings = field(default_factory=lambda: Ratings([]))
    games: dict[str, int] = field(default_factory=dict)
    points: dict[str, float] = field(default_factory=dict)
    met: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, game_id: str, seats: Sequence[str], ranks: Sequence[int]) -> None:
        """Fold one finished game in (call in schedule order)."""
        self.ratings.update(game_id, seats, ranks)
        players = len(seats)
        for name, rank in zip(seats, ranks, strict=True):
            self.games[name] = self.games.get(name, 0) + 1
            beaten = sum(1 for r in ranks if r > rank)
            tied = sum(1 for r in ranks if r == rank) - 1
            self.points[name] = self.points.get(name, 0.0) + (beaten + tied / 2) / (players - 1)
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                key = (a, b) if a < b else (b, a)
                self.met[key] = self.met.get(key, 0) + 1

    def times_met(self, a: str, b: str) -> int:
        return self.met.get((a, b) if a < b else (b, a), 0)

    def quality(self, a: str, b: str) -> float:
        """TrueSkill's match quality of a two-player game between `a` and `b` (its closed
        form, the probability-of-a-draw measure the library's `quality_1vs1` computes)."""
        ra, rb = self.ratings.rating(a), self.ratings.rating(b)
        beta2 = 2 * self.ratings.env.beta**2
        spread = beta2 + ra.sigma**2 + rb.sigma**2
        return math.sqrt(beta2 / spread) * math.exp(-((ra.mu - rb.mu) ** 2) / (2 * spread))


def _sit_out(names: list[str], players: int, fld: Field) -> tuple[list[str], list[str]]:
    """(playing, resting): the entries with the most games rest when the field does not
    divide into full groups."""
    extra = len(names) % players
    if extra == 0:
        return names, []
    by_rest = sorted(names, key=lambda n: (-fld.games.get(n, 0), tiebreak(fld.seed, n)))
    resting = set(by_rest[:extra])
    return [n for n in names if n not in resting], [n for n in by_rest[:extra]]


def adaptive_round(
    names: Iterable[str], players: int, fld: Field, min_games: int
) -> list[tuple[str, ...]]:
    """The next round's groups for an adaptive tournament, most wanted first."""
    playing, _ = _sit_out(sorted(set(names)), players, fld)
    if len(playing) < players:
        return []
    ratings = fld.ratings
    by_mu = sorted(playing, key=lambda n: (ratings.rating(n).mu, tiebreak(fld.seed, n)))
    position = {n: i for i, n in enumerate(by_mu)}
    order = sorted(
        playing,
        key=lambda n: (
            min(fld.games.get(n, 0), min_games),
            -ratings.rating(n).sigma,
            tiebreak(fld.seed, n),
        ),
    )
    free = set(playing)
    groups: list[tuple[str, ...]] = []
    for leader in order:
        if leader not in free:
            continue
        free.discard(leader)
        group = [leader]
        while len(group) < players:
            group.append(_best_partner(group, by_mu, position[leader], free, fld))
            free.discard(group[-1])
        groups.append(tuple(group))
    return groups


def _best_partner(
    group: list[str], by_mu: list[str], centre: int, free: set[str], fld: Field
) -> str:
    """The free entry near `centre` in rating order that makes the best game with `group`."""
    candidates: list[str] = []
    lo, hi = centre - 1, centre + 1
    while len(candidates) < 2 * NEIGHBOURS and (lo >= 0 or hi < len(by_mu)):
        for i in (lo, hi):
            if 0 <= i < len(by_mu) and by_mu[i] in free:
                candidates.append(by_mu[i])
        lo, hi = lo - 1, hi + 1
    best, best_value = "", -1.0
    for c in candidates:
        # Several players: the geometric mean of the pairwise qualities, each repeat meeting
        # halving a pair's worth.
        value = 1.0
        for g in group:
            value *= fld.quality(g, c) / (1 + fld.times_met(g, c))
        value **= 1 / len(group)
        if value > best_value or (
            value == best_value and tiebreak(fld.seed, c) < tiebreak(fld.seed, best)
        ):
            best, best_value = c, value
    return best


def swiss_round(names: Iterable[str], players: int, fld: Field) -> list[tuple[str, ...]]:
    """The next round's groups for a Swiss tournament, top of the standings first."""
    playing, _ = _sit_out(sorted(set(names)), players, fld)
    if len(playing) < players:
        return []
    ratings = fld.ratings
    standings = sorted(
        playing,
        key=lambda n: (-fld.points.get(n, 0.0), -ratings.rating(n).mu, tiebreak(fld.seed, n)),
    )
    free = list(standings)
    groups: list[tuple[str, ...]] = []
    while len(free) >= players:
        group = [free.pop(0)]
        while len(group) < players:
            # The next in the standings this group has met the least (the first of equals).
            pick = min(
                range(len(free)), key=lambda i: (sum(fld.times_met(g, free[i]) for g in group), i)
            )
            group.append(free.pop(pick))
        groups.append(tuple(group))
    return groups
