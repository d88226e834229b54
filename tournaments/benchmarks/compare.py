"""What duplicate pairs buy (`bench compare`): games to a verdict of the sequential test
(tournaments/sprt.py) on duplicate pairs against independent games, and the error rates.

Two bots (a known difference: `mcts:iterations=200` against `mcts:iterations=100`) first play
`pairs` duplicate pairs in this process (sdk.local: the engine, no referee; a fixed-iteration
bot plays the same whatever the clock). The tests then draw from these recorded games, with
replacement, many times over (a bootstrap, so the truth is known: the recording's mean):

- duplicate pairs: a recorded pair (both games of one deal) at a time;
- independent games: one game of a recorded pair, either, at random (a deal and a seat of
  its own, as a series of unpaired games has);
- a bot against itself: pairs of BASE against BASE, recorded likewise (the truth is no
  difference, up to the recording's luck): H1 must be accepted at most at rate alpha.

The figure of merit is the ratio of the mean games to a verdict, duplicate over independent,
at the same settings; the variance ratio (a pair's outcome against two independent games')
says the same thing before any test is run.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tournaments.schedule import deal_seed
from tournaments.sprt import GAME_VALUES, PAIR_VALUES, Sprt, SprtSettings, pair_index, score_to_elo

Pair = tuple[float, float]  # NEW's scores in the pair's two games


def record_pairs(
    new: str,
    base: str,
    pairs: int,
    seed: int,
    ruleset: str = "azul",
    progress: Callable[[int], None] | None = None,
) -> list[Pair]:
    """Play `pairs` duplicate pairs of `new` against `base` in this process."""
    from referee import builtin_target
    from sdk.local import play_local
    from sdk.run import load_bot

    recorded = []
    for k in range(pairs):
        scores = []
        for at, seats in enumerate(((new, base), (base, new))):  # NEW in seat `at`
            bots = [load_bot(builtin_target(name) or name) for name in seats]
            r = play_local(bots, ruleset=ruleset, seed=deal_seed(seed, k), time_per_move=60.0)
            mine, theirs = r.ranks[at], r.ranks[1 - at]
            scores.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
        recorded.append((scores[0], scores[1]))
        if progress is not None:
            progress(k + 1)
    return recorded


@dataclass
class Arm:
    """The tests of one way of playing: games each took, and how they ended."""

    games: list[int]
    ends: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        n = len(self.games)
        return {
            "tests": n,
            "mean_games": round(statistics.fmean(self.games), 1),
            "median_games": statistics.median(self.games),
            "h1_rate": round(self.ends["H1"] / n, 4),
            "h0_rate": round(self.ends["H0"] / n, 4),
            "inconclusive_rate": round(self.ends["inconclusive"] / n, 4),
        }


def _test(
    draw: Callable[[], int],
    values: tuple[float, ...],
    per: int,
    settings: SprtSettings,
    max_games: int,
) -> tuple[int, str]:
    """One sequential test on outcomes from `draw` (`per` games each): games used, verdict."""
    test = Sprt(settings, values)
    games = 0
    while games + per <= max_games:
        games += per
        verdict = test.add(draw())
        if verdict is not None:
            return games, verdict
    return games, "inconclusive"


def run_arms(
    pool: list[Pair],
    same: list[Pair],
    settings: SprtSettings,
    tests: int,
    max_games: int,
    rng: random.Random,
) -> dict[str, Arm]:
    """`tests` tests of each kind: duplicate and independent, on `pool` (NEW against BASE)
    and on `same` (a bot against itself)."""
    flat = [g for pair in pool for g in pair]
    same_flat = [g for pair in same for g in pair]

    draws: dict[str, tuple[Callable[[], int], tuple[float, ...], int]] = {
        "duplicate": (lambda: pair_index(*rng.choice(pool)), PAIR_VALUES, 2),
        "independent": (lambda: round(2 * rng.choice(flat)), GAME_VALUES, 1),
        "same_duplicate": (lambda: pair_index(*rng.choice(same)), PAIR_VALUES, 2),
        "same_independent": (lambda: round(2 * rng.choice(same_flat)), GAME_VALUES, 1),
    }
    arms = {}
    for name, (draw, values, per) in draws.items():
        arm = Arm([], {"H1": 0, "H0": 0, "inconclusive": 0})
        for _ in range(tests):
            games, verdict = _test(draw, values, per, settings, max_games)
            arm.games.append(games)
            arm.ends[verdict] += 1
        arms[name] = arm
    return arms


def summarise(pool: list[Pair], arms: dict[str, Arm], settings: SprtSettings) -> dict[str, Any]:
    """The figures `bench compare --json` prints (keys stable)."""
    flat = [g for pair in pool for g in pair]
    game_var = statistics.pvariance(flat)
    pair_var = statistics.pvariance([(a + b) / 2 for a, b in pool])
    counts = [0] * 5
    for a, b in pool:
        counts[pair_index(a, b)] += 1
    ratio = statistics.fmean(arms["duplicate"].games) / statistics.fmean(arms["independent"].games)
    same_ratio = statistics.fmean(arms["same_duplicate"].games) / statistics.fmean(
        arms["same_independent"].games
    )
    return {
        "pairs_recorded": len(pool),
        "pool_elo": round(score_to_elo(statistics.fmean(flat)), 1),
        "pool_pair_outcomes": counts,
        "variance_ratio": round(2 * pair_var / game_var, 3) if game_var else None,
        "settings": {
            "elo0": settings.elo0,
            "elo1": settings.elo1,
            "alpha": settings.alpha,
            "beta": settings.beta,
        },
        "different": {k: arms[k].as_dict() for k in ("duplicate", "independent")},
        "same": {
            k.removeprefix("same_"): arms[k].as_dict()
            for k in ("same_duplicate", "same_independent")
        },
        "games_ratio": round(ratio, 3),
        "same_games_ratio": round(same_ratio, 3),
    }
