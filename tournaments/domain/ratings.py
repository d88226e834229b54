"""TrueSkill ratings over free-for-all results, with ranks and ties.

Each game is a free-for-all of one-player teams; the engine's ranks (1 = winner, tied seats
share a rank) go straight to TrueSkill. Ratings are a fold over results *in schedule order*, so
recomputing from the store always gives the same numbers, however many runs, resumes and
concurrent games produced them.

TrueSkill's default float backend fails (FloatingPointError) when a game is a huge upset between
entries whose ratings are already far apart and certain. Such a game is rated again with the
`mpmath` backend (arbitrary precision, slow but only used then); if that fails too the game is
skipped for rating and listed in `Ratings.skipped`, never fatal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import trueskill

# Ties are rare in Azul (the tie-break is completed rows) but do happen.
DRAW_PROBABILITY = 0.02


def make_env(backend: str | None = None) -> trueskill.TrueSkill:
    """The TrueSkill environment the project uses (default mu 25, sigma 25/3)."""
    return trueskill.TrueSkill(draw_probability=DRAW_PROBABILITY, backend=backend)


@dataclass
class Ratings:
    """Current ratings of every entry, updated one game at a time."""

    names: list[str]
    env: trueskill.TrueSkill = field(default_factory=make_env)
    ratings: dict[str, trueskill.Rating] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # game ids the library could not rate
    precise_games: int = 0  # games rated by the mpmath fallback
    _precise_env: trueskill.TrueSkill | None = None

    def __post_init__(self) -> None:
        for name in self.names:
            self.ratings.setdefault(name, self.env.create_rating())

    def rating(self, name: str) -> trueskill.Rating:
        if name not in self.ratings:  # an entry that joined late still gets a fresh rating
            self.ratings[name] = self.env.create_rating()
        return self.ratings[name]

    def update(self, game_id: str, seats: Sequence[str], ranks: Sequence[int]) -> bool:
        """Rate one game (seat entry names and their ranks); False if it had to be skipped."""
        if len(seats) < 2 or len(set(seats)) != len(seats):
            self.skipped.append(game_id)
            return False
        groups = [(self.rating(name),) for name in seats]
        # trueskill ranks: lower is better, equal means tie; ours are 1-based the same way.
        tranks = [int(r) - 1 for r in ranks]
        try:
            new = self.env.rate(groups, ranks=tranks)
        except (FloatingPointError, ZeroDivisionError, ValueError, OverflowError):
            new = self._rate_precisely(groups, tranks)
            if new is None:
                self.skipped.append(game_id)
                return False
            self.precise_games += 1
        for name, (rating,) in zip(seats, new, strict=True):
            # Store plain-float ratings even when mpmath computed them.
            self.ratings[name] = self.env.create_rating(
                mu=float(rating.mu), sigma=float(rating.sigma)
            )
        return True

    def _rate_precisely(
        self, groups: list[tuple[trueskill.Rating, ...]], ranks: list[int]
    ) -> list[tuple[trueskill.Rating, ...]] | None:
        try:
            if self._precise_env is None:
                self._precise_env = make_env("mpmath")
            return list(self._precise_env.rate(groups, ranks=ranks))
        except Exception:
            return None

    def conservative(self, name: str) -> float:
        """mu - 3 sigma: the leaderboard's sort key (a rating the entry very likely exceeds)."""
        r = self.rating(name)
        return float(r.mu - 3 * r.sigma)


def compute(
    names: Iterable[str],
    games: Iterable[tuple[str, Sequence[str], Sequence[int]]],
    ratings: Ratings | None = None,
) -> Ratings:
    """Ratings from `(game_id, seats, ranks)` results, folded in the order given (into
    `ratings` when given: its owner may watch them change)."""
    ratings = ratings if ratings is not None else Ratings(list(names))
    for game_id, seats, ranks in games:
        ratings.update(game_id, seats, ranks)
    return ratings
