"""Leaderboard, crosstable and exports, all computed from stored results.

Statistics with honest error bars: the win rate carries a 95% Wilson score interval (right near
0% and 100%, where the normal approximation is not); the mean score a 95% Student-t interval.
A *win* is an outright first place; a shared first place counts as a tie, not a win.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from referee import Termination
from tournaments.domain.ratings import Ratings, compute
from tournaments.domain.store import GameStore, StoredGame

Z95 = 1.959963984540054
# Two-sided 95% Student-t quantiles for 1..30 degrees of freedom (beyond: `t95`).
_T95 = [
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
]


def t95(df: int) -> float:
    """The two-sided 95% Student-t quantile for `df` >= 1 degrees of freedom: the table up to
    30, beyond it the Cornish-Fisher expansion around the normal's (within 0.0005 from 31 on,
    where the normal's 1.96 would be 4% narrow)."""
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (a draw may count as half a success); (0, 1)
    when there is no data."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# Below this many games a mean score's interval is not shown: the page says "too few games".
# With 2 games the t quantile is 12.7 (6.5 times the normal's) and "76.5 (0.0-311.6)" spans
# more than any score; from 5 on it is under 2.8 and the interval starts to say something.
MEAN_INTERVAL_MIN_GAMES = 5


def mean_interval(values: Sequence[float], lowest: float = 0.0) -> tuple[float, float, float]:
    """(mean, low, high): the mean with its 95% t interval (NaN bounds below two values), its
    low end clipped at `lowest`: a game's score is never below zero, and "55.0 (-186.4-296.4)"
    after a few games says a negative mean were possible. Each value a sample of its own."""
    return clustered_mean_interval([[v] for v in values], lowest)


def clustered_mean_interval(
    groups: Sequence[Sequence[float]], lowest: float = 0.0
) -> tuple[float, float, float]:
    """(mean, low, high) of every value in `groups`, where values of one group are not
    independent of each other (the games of one deal): the 95% t interval of the cluster-robust
    variance, with a degree of freedom per group less one (NaN bounds below two groups; with
    one value a group, the plain t interval: s / sqrt(n)). Counting each game as a sample of
    its own would narrow the interval where a deal favours a bot in all its seats."""
    groups = [g for g in groups if g]
    n = sum(len(g) for g in groups)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(sum(g) for g in groups) / n
    c = len(groups)
    if c < 2:
        return (mean, math.nan, math.nan)
    spread = sum((sum(g) - mean * len(g)) ** 2 for g in groups)
    var = c / (c - 1) * spread / (n * n)
    t = t95(c - 1)
    half = t * math.sqrt(var)
    return (mean, max(lowest, mean - half), mean + half)


def seat_faults(termination: str, faults: dict[str, int]) -> dict[str, int]:
    """The faults of one seat in one game: the referee's counts, plus a fatal termination the
    counts do not already include (e.g. a crash that ended the bot's game)."""
    out = {k: int(v) for k, v in faults.items() if int(v)}
    if termination not in (Termination.OK, "") and termination not in out:
        out[termination] = 1
    return out


@dataclass
class Row:
    """One leaderboard line."""

    rank: int
    entry: str
    mu: float
    sigma: float
    conservative: float
    games: int
    wins: int
    ties: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    mean_score: float
    mean_score_low: float
    mean_score_high: float
    faults: int
    fault_kinds: dict[str, int] = field(default_factory=dict)
    cpu_per_game: float = math.nan  # mean CPU seconds its processes used per game (measured)


@dataclass
class Pairwise:
    """How `a` did against `b` in the games where both played: finished ahead, behind, level."""

    a: str
    b: str
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass
class Report:
    """Everything `tournament show` prints."""

    games_total: int
    games_done: int
    leaderboard: list[Row]
    crosstable: dict[tuple[str, str], Pairwise]
    skipped: list[str]
    entries: list[str]

    def to_json(self) -> dict[str, Any]:
        def clean(v: Any) -> Any:
            return None if isinstance(v, float) and math.isnan(v) else v

        return {
            "games_total": self.games_total,
            "games_done": self.games_done,
            "leaderboard": [{k: clean(v) for k, v in asdict(r).items()} for r in self.leaderboard],
            "crosstable": [
                {"a": p.a, "b": p.b, "wins": p.wins, "losses": p.losses, "draws": p.draws}
                for p in self.crosstable.values()
            ],
            "unrated_games": self.skipped,
        }


def leaderboard(names: Sequence[str], done: Sequence[StoredGame], ratings: Ratings) -> list[Row]:
    """Leaderboard rows sorted by mu - 3 sigma (best first; ties broken by mu, then name)."""
    scores: dict[str, list[float]] = {n: [] for n in names}
    wins = dict.fromkeys(names, 0)
    ties = dict.fromkeys(names, 0)
    faults: dict[str, dict[str, int]] = {n: {} for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    for g in done:
        firsts = sum(1 for s in g.seats if s.rank == 1)
        for s in g.seats:
            scores.setdefault(s.entry, []).append(s.score)
            if s.rank == 1:
                target = wins if firsts == 1 else ties
                target[s.entry] = target.get(s.entry, 0) + 1
            if s.cpu_time is not None:
                cpu.setdefault(s.entry, []).append(s.cpu_time)
            bucket = faults.setdefault(s.entry, {})
            for kind, count in seat_faults(s.termination, s.faults).items():
                bucket[kind] = bucket.get(kind, 0) + count
    rows = []
    for name in scores:
        r = ratings.rating(name)
        n = len(scores[name])
        w = wins.get(name, 0)
        lo, hi = wilson(w, n)
        mean, mlo, mhi = mean_interval(scores[name])
        rows.append(
            Row(
                rank=0,
                entry=name,
                mu=float(r.mu),
                sigma=float(r.sigma),
                conservative=float(r.mu - 3 * r.sigma),
                games=n,
                wins=w,
                ties=ties.get(name, 0),
                win_rate=(w / n if n else 0.0),
                win_rate_low=lo,
                win_rate_high=hi,
                mean_score=mean,
                mean_score_low=mlo,
                mean_score_high=mhi,
                faults=sum(faults[name].values()),
                fault_kinds=dict(sorted(faults[name].items())),
                cpu_per_game=(sum(cpu[name]) / len(cpu[name]) if cpu.get(name) else math.nan),
            )
        )
    rows.sort(key=lambda r: (-r.conservative, -r.mu, r.entry))
    for i, row in enumerate(rows, 1):
        row.rank = i
    return rows


def crosstable(names: Sequence[str], done: Iterable[StoredGame]) -> dict[tuple[str, str], Pairwise]:
    """Pairwise results for every ordered pair of entries that met."""
    table: dict[tuple[str, str], Pairwise] = {}
    for g in done:
        for a in g.seats:
            for b in g.seats:
                if a.entry == b.entry:
                    continue
                cell = table.setdefault((a.entry, b.entry), Pairwise(a.entry, b.entry))
                if a.rank < b.rank:
                    cell.wins += 1
                elif a.rank > b.rank:
                    cell.losses += 1
                else:
                    cell.draws += 1
    order = {n: i for i, n in enumerate(names)}
    return dict(
        sorted(
            table.items(),
            key=lambda kv: (order.get(kv[0][0], 1 << 30), order.get(kv[0][1], 1 << 30)),
        )
    )


def rate_games(
    names: Sequence[str],
    done: Sequence[StoredGame],
    after: Callable[[StoredGame, Ratings], None] | None = None,
) -> Ratings:
    """Ratings recomputed from stored games, in schedule order (deterministic); `after(game,
    ratings)` sees the ratings after each game (the report's rating history)."""
    ordered = sorted(done, key=lambda g: g.game.index)

    def results() -> Iterator[tuple[str, list[str], list[int]]]:
        for g in ordered:
            yield g.game.game_id, [s.entry for s in g.seats], [s.rank for s in g.seats]
            # Resumed only once `compute` has rated the game just yielded.
            if after is not None:
                after(g, ratings)

    ratings = Ratings(list(names))
    return compute(names, results(), ratings)


def build_report(store: GameStore) -> Report:
    """The full report of a store, recomputed from its results."""
    names = [e.name for e in store.entries()]
    done = list(store.games(done_only=True))
    ratings = rate_games(names, done)
    games_done, games_total = store.counts()
    return Report(
        games_total=games_total,
        games_done=games_done,
        leaderboard=leaderboard(names, done, ratings),
        crosstable=crosstable(names, done),
        skipped=list(ratings.skipped),
        entries=names,
    )


# -- exports --------------------------------------------------------------------------------

CSV_COLUMNS = [
    "game_id",
    "index",
    "status",
    "seed",
    "seat",
    "entry",
    "score",
    "rank",
    "termination",
    "strikes",
    "faults",
    "moves",
    "move_time",
    "duration",
    "cpu_time",
    "host",
    "isolation",
    "cpus",
    "ruleset",
]


def export_csv(store: GameStore) -> str:
    """Every game as CSV, one row per seat (pending games: one row per seat, no results)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    ruleset = (store.config() or {}).get("ruleset", "")  # one per tournament, on every row so
    for g in store.games():  # that files can be concatenated
        if g.status != "done":
            for seat, name in enumerate(g.game.seats):
                writer.writerow(
                    [g.game.game_id, g.game.index, g.status, g.game.seed, seat, name]
                    + [""] * (len(CSV_COLUMNS) - 7)
                    + [ruleset]
                )
            continue
        for seat, s in enumerate(g.seats):
            writer.writerow(
                [
                    g.game.game_id,
                    g.game.index,
                    g.status,
                    g.game.seed,
                    seat,
                    s.entry,
                    s.score,
                    s.rank,
                    s.termination,
                    s.strikes,
                    json.dumps(s.faults, sort_keys=True),
                    s.moves,
                    f"{s.move_time:.6f}",
                    f"{g.duration:.6f}" if g.duration is not None else "",
                    f"{s.cpu_time:.4f}" if s.cpu_time is not None else "",
                    *(
                        (g.machine.host, g.machine.isolation, g.machine.cpus)
                        if g.machine
                        else ("", "", "")
                    ),
                    ruleset,
                ]
            )
    return buf.getvalue()


def export_json(store: GameStore, replays: bool = True) -> dict[str, Any]:
    """Every game as JSON (config, entries, games with results and, optionally, replays)."""
    games = []
    for g in store.games():
        item: dict[str, Any] = {
            "game_id": g.game.game_id,
            "index": g.game.index,
            "status": g.status,
            "seats": list(g.game.seats),
            "seed": g.game.seed,
            "duration": g.duration,
            "machine": asdict(g.machine) if g.machine else None,
        }
        if g.status == "done":
            # The log's path is the playing machine's, not part of the store's results.
            item["results"] = [{k: v for k, v in asdict(s).items() if k != "log"} for s in g.seats]
            if replays:
                item["record"] = store.replay(g.game.game_id)
        games.append(item)
    done, total = store.counts()
    return {
        "config": store.config(),
        "entries": [asdict(e) for e in store.entries()],
        "games_total": total,
        "games_done": done,
        "games": games,
    }
