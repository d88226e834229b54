"""What duplicate pairs buy (`bench compare`): games to a verdict of the sequential test
(tournaments/domain/sprt.py) on duplicate pairs against independent games, and the error rates.

Two bots (a known difference: `mcts:iterations=200` against `mcts:iterations=100`) first play
`pairs` duplicate pairs in this process (sdk.local: the engine, no referee; a fixed-iteration
bot plays the same whatever the clock), each seat's bot seeded as `bot compare` seeds it: the
same seed for a seat in both games of a pair (tournaments/domain/arena.py `seed_key`). The tests
then draw from these recorded games, with replacement, many times over (a bootstrap, so the truth is
known: the recording's mean), every arm on the same statistic (`margin` or `wdl`):

- duplicate pairs: a recorded pair (both games of one deal) at a time;
- independent games: one game of a recorded pair, either, at random (a deal, a seat and bot
  seeds of its own, as a series of unpaired games has);
- a bot against itself: pairs of BASE against BASE, recorded likewise (the truth is no
  difference, up to the recording's luck): H1 must be accepted at most at rate alpha;
- (margin) the NEW-against-BASE pairs with every margin shifted so that the truth is exactly
  H0 (`null`): the same pairs' correlation, and H1 must be accepted at most at rate alpha.

The figure of merit is the ratio of the mean games to a verdict, duplicate over independent,
at the same settings on the same statistic; the variance ratio (a pair's outcome against two
independent games') says the same thing before any test is run.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from tournaments.domain.schedule import deal_seed
from tournaments.domain.sprt import (
    GAME_VALUES,
    PAIR_VALUES,
    MarginSprt,
    Sprt,
    SprtSettings,
    effect_to_elo,
    elo_to_effect,
    estimate,
    pair_index,
    score_to_elo,
)

Game = tuple[float, float]  # NEW's score (1, 1/2, 0) and point margin in one game
Pair = tuple[Game, Game]  # the pair's two games, NEW in seat 0 then in seat 1


def record_pairs(
    new: str,
    base: str,
    pairs: int,
    seed: int,
    ruleset: str = "azul",
    progress: Callable[[int], None] | None = None,
) -> list[Pair]:
    """Play `pairs` duplicate pairs of `new` against `base` in this process."""
    from referee import bot_seeds, builtin_target
    from sdk.local import play_local
    from sdk.run import load_bot

    recorded = []
    for k in range(pairs):
        games = []
        for at, seats in enumerate(((new, base), (base, new))):  # NEW in seat `at`
            bots = [load_bot(builtin_target(name) or name) for name in seats]
            for bot, bot_seed in zip(bots, bot_seeds(seed, f"deal-{k}", 2), strict=True):
                bot.rng.seed(bot_seed)  # seats keep their seed over the pair, as in bot compare
            r = play_local(bots, ruleset=ruleset, seed=deal_seed(seed, k), time_per_move=60.0)
            mine, theirs = r.ranks[at], r.ranks[1 - at]
            score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            games.append((score, float(r.scores[at] - r.scores[1 - at])))
        recorded.append((games[0], games[1]))
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


Draw = Callable[[], Sequence[Game]]  # one outcome's games


def _test(
    draw: Draw, statistic: str, per: int, settings: SprtSettings, max_games: int
) -> tuple[int, str]:
    """One sequential test on outcomes from `draw` (`per` games each): games used, verdict."""
    test: Sprt | MarginSprt
    if statistic == "margin":
        test = MarginSprt(settings, per)
    else:
        test = Sprt(settings, PAIR_VALUES if per == 2 else GAME_VALUES)
    games = 0
    while games + per <= max_games:
        games += per
        outcome = draw()
        if isinstance(test, MarginSprt):
            verdict = test.add([margin for _, margin in outcome])
        else:
            verdict = test.add(round(2 * sum(score for score, _ in outcome)))
        if verdict is not None:
            return games, verdict
    return games, "inconclusive"


def shifted(pool: list[Pair], effect: float) -> list[Pair]:
    """`pool` with every margin moved so that NEW's normalised margin effect is `effect`
    exactly (the spread unchanged): a recording whose truth is known."""
    margins = [m for pair in pool for _, m in pair]
    shift = effect * statistics.pstdev(margins) - statistics.fmean(margins)
    return [((a, m1 + shift), (b, m2 + shift)) for (a, m1), (b, m2) in pool]


def pair_correlation(values: list[tuple[float, float]]) -> float | None:
    """How alike a pair's two games are: the Pearson correlation of the first game's value
    with the second's over the pairs (+1: the same outcome twice, 0: like two unrelated games,
    -1: they cancel); None when either game never varies. The games are centred on their own
    seat's mean, so the first mover's edge alone does not read as likeness."""
    firsts, seconds = [a for a, _ in values], [b for _, b in values]
    if len(values) < 2 or len(set(firsts)) < 2 or len(set(seconds)) < 2:
        return None
    return round(statistics.correlation(firsts, seconds), 3)


def pool_intervals(pool: list[Pair]) -> dict[str, list[float]]:
    """The recording's Elo 95% intervals, by pairs' ranks (pentanomial) and by margins (the
    estimates `bot compare` prints): a small difference is resolved only if low is above 0."""
    counts = [0] * 5
    margins = MarginSprt(per=2)
    for (a, m1), (b, m2) in pool:
        counts[pair_index(a, b)] += 1
        margins.add([m1, m2])
    _, low, high = estimate(counts, PAIR_VALUES)
    _, m_low, m_high = margins.estimate()
    return {
        "pool_elo_interval": [round(low, 1), round(high, 1)],
        "pool_margin_elo_interval": [round(m_low, 1), round(m_high, 1)],
    }


def _one_game(rng: random.Random, games: list[Game]) -> tuple[Game]:
    return (rng.choice(games),)


def run_arms(
    pool: list[Pair],
    same: list[Pair],
    settings: SprtSettings,
    tests: int,
    max_games: int,
    rng: random.Random,
    statistic: str = "wdl",
) -> dict[str, Arm]:
    """`tests` tests of each kind: duplicate and independent, on `pool` (NEW against BASE),
    on `same` (a bot against itself) and (margin) on `pool` shifted to H0 exactly."""
    worlds = {"": pool, "same_": same}
    if statistic == "margin":
        worlds["null_"] = shifted(pool, elo_to_effect(settings.elo0))
    arms = {}
    for prefix, pairs in worlds.items():
        flat = [g for pair in pairs for g in pair]
        kinds: dict[str, tuple[Draw, int]] = {
            "duplicate": (partial(rng.choice, pairs), 2),
            "independent": (partial(_one_game, rng, flat), 1),
        }
        for kind, (draw, per) in kinds.items():
            arm = Arm([], {"H1": 0, "H0": 0, "inconclusive": 0})
            for _ in range(tests):
                games, verdict = _test(draw, statistic, per, settings, max_games)
                arm.games.append(games)
                arm.ends[verdict] += 1
            arms[prefix + kind] = arm
    return arms


def summarise(
    pool: list[Pair], arms: dict[str, Arm], settings: SprtSettings, statistic: str = "wdl"
) -> dict[str, Any]:
    """The figures `bench compare --json` prints (keys stable; later ones added)."""
    scores = [score for pair in pool for score, _ in pair]
    margins = [m for pair in pool for _, m in pair]
    counts = [0] * 5
    for (a, _), (b, _) in pool:
        counts[pair_index(a, b)] += 1

    def ratio(prefix: str) -> float:
        paired = statistics.fmean(arms[prefix + "duplicate"].games)
        return round(paired / statistics.fmean(arms[prefix + "independent"].games), 3)

    def pair_var_ratio(values: list[tuple[float, float]]) -> float | None:
        game_var = statistics.pvariance([v for pair in values for v in pair])
        pair_var = statistics.pvariance([(a + b) / 2 for a, b in values])
        return round(2 * pair_var / game_var, 3) if game_var else None

    by_score = pair_var_ratio([(a, b) for (a, _), (b, _) in pool])
    by_margin = pair_var_ratio([(a, b) for (_, a), (_, b) in pool])
    spread = statistics.pstdev(margins)
    figures: dict[str, Any] = {
        "pairs_recorded": len(pool),
        "pool_elo": round(score_to_elo(statistics.fmean(scores)), 1),
        "pool_pair_outcomes": counts,
        "variance_ratio": by_margin if statistic == "margin" else by_score,
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
        "games_ratio": ratio(""),
        "same_games_ratio": ratio("same_"),
        "statistic": statistic,
        "pool_margin": round(statistics.fmean(margins), 2),
        "pool_margin_sd": round(spread, 2),
        "pool_margin_elo": round(effect_to_elo(statistics.fmean(margins) / spread), 1)
        if spread
        else 0.0,
        "variance_ratio_wdl": by_score,
        "variance_ratio_margin": by_margin,
        "pair_correlation_wdl": pair_correlation([(a, b) for (a, _), (b, _) in pool]),
        "pair_correlation_margin": pair_correlation([(a, b) for (_, a), (_, b) in pool]),
        **pool_intervals(pool),
    }
    if "null_duplicate" in arms:
        figures["null"] = {
            k.removeprefix("null_"): arms[k].as_dict()
            for k in ("null_duplicate", "null_independent")
        }
    return figures
