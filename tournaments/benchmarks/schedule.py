"""A simulated field for `bench schedule`: how fast each schedule finds the true order.

Each entry gets a true strength drawn from the TrueSkill prior (N(25, (25/3)^2)); a game's
result is drawn from the TrueSkill model itself (each seat performs at its strength plus
N(0, beta^2) noise; higher performance, better rank). No bots, no store: the schedules'
pairing code (`tournaments.domain.pairing`) and the ratings (`tournaments.domain.ratings`) are the
ones a real tournament uses, rounds and seat rotations included, so what is measured is the
scheduler: the Kendall tau between the ratings (mu) and the true strengths after k games, and
the CPU time the scheduler spends per game (process time: on a shared machine wall time
would mostly measure the neighbours).

The round-robin baseline is played in its best order for a partial run: circle-method rounds
(everyone plays once a round, every pair once in n - 1 rounds), so after k games the games are
spread over the whole field. With 3 or 4 players a round-robin of all groups is out of reach
at this size; the baseline is then a random partition of the field each round.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from tournaments.domain.pairing import Field, adaptive_round, swiss_round

# Targets from the issue that asked for adaptive pairing (docs/tournaments.md).
TARGET_FRACTION = 0.5
TARGET_US_PER_GAME = 1000.0

KINDS = ("round-robin", "swiss", "adaptive")


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-a of two equally long sequences (ties count as neither way)."""
    n = len(xs)
    if n < 2:
        return 1.0
    score = 0
    for i in range(n):
        xi, yi = xs[i], ys[i]
        for j in range(i + 1, n):
            dx, dy = xs[j] - xi, ys[j] - yi
            if dx * dy > 0:
                score += 1
            elif dx * dy < 0:
                score -= 1
    return 2 * score / (n * (n - 1))


@dataclass
class SimResult:
    """One schedule's run: tau after k games, and where the time went."""

    kind: str
    games: int = 0
    tau: list[tuple[int, float]] = field(default_factory=list)
    pairing_s: float = 0.0
    rating_s: float = 0.0
    # Every entry's mu at each checkpoint (kept on request: `stability` compares two runs).
    mus: list[list[float]] = field(default_factory=list)

    @property
    def final_tau(self) -> float:
        return self.tau[-1][1] if self.tau else 0.0

    def scheduler_us_per_game(self) -> float:
        """Pairing, plus the rating updates pairing needs (a round-robin needs none)."""
        own = self.pairing_s + (self.rating_s if self.kind != "round-robin" else 0.0)
        return 1e6 * own / self.games if self.games else 0.0

    def games_to_reach(self, target: float) -> int | None:
        """The first checkpoint at which tau reached `target`, or None."""
        return next((k for k, t in self.tau if t >= target), None)

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "final_tau": self.final_tau,
            "tau": [[k, t] for k, t in self.tau],
            "pairing_us_per_game": 1e6 * self.pairing_s / self.games if self.games else 0.0,
            "rating_us_per_game": 1e6 * self.rating_s / self.games if self.games else 0.0,
            "scheduler_us_per_game": self.scheduler_us_per_game(),
        }


def circle_rounds(names: Sequence[str]) -> Iterator[list[tuple[str, ...]]]:
    """Round-robin rounds by the circle method: each a perfect matching (a bye if odd)."""
    ring: list[str | None] = list(names) + ([None] if len(names) % 2 else [])
    n = len(ring)
    while True:
        for _ in range(n - 1):
            yield [
                (a, b)
                for a, b in ((ring[i], ring[n - 1 - i]) for i in range(n // 2))
                if a is not None and b is not None
            ]
            ring = [ring[0], ring[-1], *ring[1:-1]]


def simulate(  # noqa: PLR0913  # the field, the schedule, and the luck apart
    kind: str,
    entries: int,
    games: int,
    players: int = 2,
    seed: int = 1,
    checkpoints: int = 40,
    min_games: int | None = None,
    luck_seed: int | None = None,
    keep_mus: bool = False,
) -> SimResult:
    """Play `games` simulated games of schedule `kind` on a field of `entries` (strengths from
    `seed`; the games' luck and the pairing's tie-breaks from `luck_seed`, default `seed`)."""
    if kind not in KINDS:
        raise ValueError(f"schedule {kind!r} is not one of {', '.join(KINDS)}")
    field_rng = random.Random(seed)
    names = [f"e{i:04d}" for i in range(entries)]
    strength = {n: field_rng.gauss(25.0, 25.0 / 3) for n in names}
    truth = [strength[n] for n in names]
    luck = seed if luck_seed is None else luck_seed
    noise = random.Random(luck + 1)
    fld = Field(luck)
    beta = fld.ratings.env.beta
    result = SimResult(kind)
    step = max(players, games // checkpoints // players * players)
    next_groups = _round_maker(
        kind, names, players, fld, luck, players if min_games is None else min_games
    )
    round_no = 0
    while result.games < games:
        t0 = time.process_time()
        groups = next_groups()
        result.pairing_s += time.process_time() - t0
        if not groups:
            break
        for k, group in enumerate(groups):
            for rotation in range(players):
                if result.games >= games:
                    break
                seats = group[rotation:] + group[:rotation]
                perf = [strength[s] + noise.gauss(0.0, beta) for s in seats]
                ranks = [1 + sum(1 for p in perf if p > mine) for mine in perf]
                t1 = time.process_time()
                fld.add(f"r{round_no}-p{k}-g{rotation}", seats, ranks)
                result.rating_s += time.process_time() - t1
                result.games += 1
                if result.games % step == 0 or result.games == games:
                    mus = [fld.ratings.rating(n).mu for n in names]
                    result.tau.append((result.games, kendall_tau(mus, truth)))
                    if keep_mus:
                        result.mus.append(mus)
        round_no += 1
    return result


def _round_maker(
    kind: str, names: list[str], players: int, fld: Field, seed: int, min_games: int
) -> Callable[[], list[tuple[str, ...]]]:
    if kind == "adaptive":
        return lambda: adaptive_round(names, players, fld, min_games)
    if kind == "swiss":
        return lambda: swiss_round(names, players, fld)
    if players == 2:
        rounds = circle_rounds(names)
        return lambda: next(rounds)
    shuffler = random.Random(seed + 2)

    def random_partition() -> list[tuple[str, ...]]:
        order = list(names)
        shuffler.shuffle(order)
        return [tuple(order[i : i + players]) for i in range(0, len(order) - players + 1, players)]

    return random_partition


def average(results: Sequence[SimResult]) -> SimResult:
    """One schedule's runs on several fields, as one: tau averaged at each checkpoint, times
    added up."""
    first = results[0]
    merged = SimResult(
        first.kind,
        games=sum(r.games for r in results),
        pairing_s=sum(r.pairing_s for r in results),
        rating_s=sum(r.rating_s for r in results),
    )
    for i, (k, _) in enumerate(first.tau):
        merged.tau.append((k, sum(r.tau[i][1] for r in results) / len(results)))
    return merged


def compare(
    entries: int,
    games: int,
    players: int = 2,
    seed: int = 1,
    fields: int = 1,
    checkpoints: int = 40,
) -> dict[str, SimResult]:
    """Every schedule on the same `fields` simulated fields (seeds `seed`, `seed` + 10, ...);
    tau is averaged over the fields, since one field's luck moves it by a few hundredths."""
    return {
        kind: average(
            [
                simulate(kind, entries, games, players, seed + 10 * f, checkpoints)
                for f in range(fields)
            ]
        )
        for kind in KINDS
    }


def summary(
    results: dict[str, SimResult], entries: int, games: int, players: int, fields: int
) -> dict[str, object]:
    """The `--json` document of `bench schedule` (its keys are a stable interface)."""
    rr, adaptive = results["round-robin"], results["adaptive"]
    reach = adaptive.games_to_reach(rr.final_tau)
    per_field = adaptive.games // fields if fields else adaptive.games
    return {
        "entries": entries,
        "games": games,
        "players": players,
        "fields": fields,
        "schedules": {
            kind: dict(r.to_json(), games=r.games // fields) for kind, r in results.items()
        },
        "round_robin_tau": rr.final_tau,
        "adaptive_games_to_round_robin_tau": reach,
        "adaptive_fraction_of_games": (reach / per_field) if reach else None,
        "scheduler_us_per_game": {k: r.scheduler_us_per_game() for k, r in results.items()},
    }


def stability(
    kind: str,
    entries: int,
    games: int,
    players: int = 2,
    seed: int = 1,
    checkpoints: int = 40,
    min_games: int | None = None,
) -> list[tuple[int, float, float]]:
    """Two independent tournaments of the same field (same strengths, different luck and
    pairing): at each checkpoint (games, tau between the two standings, tau of the first with
    the true order). How many games a final needs for its standings to be reproducible."""
    a = simulate(kind, entries, games, players, seed, checkpoints, min_games, seed, True)
    b = simulate(kind, entries, games, players, seed, checkpoints, min_games, seed + 1000, True)
    return [(k, kendall_tau(ma, mb), t) for (k, t), ma, mb in zip(a.tau, a.mus, b.mus, strict=True)]
