"""The statistics of "did my change help?": a generalised sequential probability ratio test
(GSPRT) on the outcomes of duplicate pairs, as fishtest runs it on game pairs.

A duplicate pair is one deal played twice, NEW and BASE exchanging their seats. Its outcome for
NEW is the mean of its two game scores (win 1, draw 1/2, loss 0): one of five values, 0, 1/4,
1/2, 3/4, 1 (the pentanomial model). Pairs are independent and identically distributed, games
are not: the deal's luck and the seat's advantage are shared by the two games of a pair, and
cancel in its outcome, so a pair's outcome varies less than two independent games' would. The
test needs fewer games in proportion (docs/improving.md, "Did my change help?").

The hypotheses are about NEW's expected score s against BASE, in logistic Elo
(s = 1 / (1 + 10^(-elo/400))): H0 elo = elo0, H1 elo = elo1. For each hypothesis the outcome
distribution is the maximum-likelihood one among those with that expected score (the
empirical-likelihood estimate: no model of draws or of the pair's correlation is assumed), and
the log-likelihood ratio of the observed counts under the two is compared with Wald's bounds
log(beta / (1 - alpha)) and log((1 - beta) / alpha) after every pair. Any other set of
outcome values works the same way: independent games are the trinomial 0, 1/2, 1.

`MarginSprt` (below) tests the same hypotheses on point margins instead of ranks, through the
normal model of a game's margin (`bot compare --statistic margin`).

Pure functions, no I/O: tests/tournaments/test_sprt.py checks the error rates by simulation.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's mean score for NEW: LL, LD, WL|DD, WD, WW
GAME_VALUES = (0.0, 0.5, 1.0)  # one game: loss, draw, win
# Added to every count: a distribution that never saw an outcome must not call it impossible
# (a pair of identical bots on a deterministic deal always scores 1/2; without it, any other
# expected score would be infinitely unlikely after one pair). Fishtest does the same.
REGULARISE = 1e-3
ELO_CAP = 1200.0  # the Elo of a score of 0.001 or 0.999: beyond, an estimate says nothing more
Z95 = 1.959964


def elo_to_score(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score, capped at +-ELO_CAP."""
    low = elo_to_score(-ELO_CAP)
    score = min(max(score, low), 1.0 - low)
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class SprtSettings:
    """The test: H0 elo = `elo0` against H1 elo = `elo1`, false H1 at most `alpha`, false H0
    at most `beta`."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def problems(self) -> list[str]:
        """What is wrong with these settings, in words (empty when they can be tested)."""
        found = []
        if not self.elo1 > self.elo0:
            found.append(f"--elo1 ({self.elo1:g}) must be greater than --elo0 ({self.elo0:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                found.append(f"--{name} is a probability between 0 and 0.5, not {value:g}")
        if max(abs(self.elo0), abs(self.elo1)) > ELO_CAP / 2:
            found.append(f"--elo0 and --elo1 are Elo differences within +-{ELO_CAP / 2:g}")
        return found

    def bounds(self) -> tuple[float, float]:
        """Wald's bounds: below the lower one H0 is accepted, above the upper one H1."""
        return (
            math.log(self.beta / (1.0 - self.alpha)),
            math.log((1.0 - self.beta) / self.alpha),
        )


def _constrained_mle(freqs: Sequence[float], values: Sequence[float], s: float) -> list[float]:
    """The distribution on `values` nearest to the observed frequencies (maximum likelihood)
    whose mean is `s`: p_j = f_j / (1 + lam (v_j - s)), lam solving sum p_j (v_j - s) = 0.

    The sum is strictly decreasing in lam on the interval where every p_j stays positive, so
    a safeguarded Newton iteration finds its root.
    """
    d = [v - s for v in values]
    low = -1.0 / max(d) if max(d) > 0 else -1e9
    high = -1.0 / min(d) if min(d) < 0 else 1e9
    lam = 0.0
    for _ in range(100):
        g = sum(f * x / (1.0 + lam * x) for f, x in zip(freqs, d, strict=True))
        if abs(g) < 1e-13:
            break
        dg = -sum(f * x * x / (1.0 + lam * x) ** 2 for f, x in zip(freqs, d, strict=True))
        if g > 0:
            low = lam
        else:
            high = lam
        step = lam - g / dg if dg < 0 else (low + high) / 2
        lam = step if low < step < high else (low + high) / 2
    return [f / (1.0 + lam * x) for f, x in zip(freqs, d, strict=True)]


def llr(counts: Sequence[float], values: Sequence[float], settings: SprtSettings) -> float:
    """The log-likelihood ratio of H1 to H0 for `counts[j]` outcomes of value `values[j]`."""
    if sum(counts) == 0:
        return 0.0
    smoothed = [c + REGULARISE for c in counts]
    total = sum(smoothed)
    freqs = [c / total for c in smoothed]
    p0 = _constrained_mle(freqs, values, elo_to_score(settings.elo0))
    p1 = _constrained_mle(freqs, values, elo_to_score(settings.elo1))
    return sum(c * math.log(b / a) for c, a, b in zip(counts, p0, p1, strict=True) if c)


def estimate(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float, float]:
    """NEW's Elo difference and its 95% interval from the outcomes' mean and spread (the
    spread of the outcomes actually observed: pairs count as pairs, not as two games)."""
    n = sum(counts)
    if n == 0:
        return 0.0, -ELO_CAP, ELO_CAP
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values, strict=True)) / n
    half = Z95 * math.sqrt(var / n)
    return score_to_elo(mean), score_to_elo(mean - half), score_to_elo(mean + half)


def pair_index(first: float, second: float) -> int:
    """The pentanomial index (0..4) of a pair whose games NEW scored `first` and `second`."""
    return round((first + second) * 2)


@dataclass
class Sprt:
    """A test as it goes: add outcomes one at a time; `verdict` says when it is decided.

    `values` are the outcome values (pairs: PAIR_VALUES; independent games: GAME_VALUES).
    """

    settings: SprtSettings = field(default_factory=SprtSettings)
    values: tuple[float, ...] = PAIR_VALUES
    counts: list[int] = field(default_factory=list)
    llr: float = 0.0

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * len(self.values)

    def add(self, index: int) -> str | None:
        """Count one outcome (its index in `values`); the verdict if the test is now decided."""
        self.counts[index] += 1
        self.llr = llr(self.counts, self.values, self.settings)
        return self.verdict()

    def verdict(self) -> str | None:
        """ "H1" or "H0" once the LLR has left its bounds, else None."""
        lower, upper = self.settings.bounds()
        if self.llr >= upper:
            return "H1"
        if self.llr <= lower:
            return "H0"
        return None

    def estimate(self) -> tuple[float, float, float]:
        """Elo, and the low and high ends of its 95% interval."""
        return estimate(self.counts, self.values)


# --- The score-margin test (`bot compare`'s default statistic) -------------------------------
#
# An outcome is the mean point margin (NEW's score minus BASE's) of its games: a pair's two, or
# one independent game. The hypotheses are about t = mu / sigma, NEW's expected margin in a game
# in units of the margin's spread in a game (the normalised effect size), read as Elo through
# the normal model of a game's margin: NEW wins a game when its margin is above 0, so with
# margins N(mu, sigma^2) its expected score is Phi(t) and its logistic Elo score_to_elo(Phi(t))
# (docs/improving.md, "Did my change help?": how well that matches the wins, measured). sigma is the
# spread of single games, which pairing does not change, so t means the same for pairs and for
# independent games; what pairing changes is the spread of the outcome, which the test
# estimates as it goes.
#
# The LLR is the normal one with the outcome's variance V taken as observed:
# n (mu1 - mu0) (mean - (mu0 + mu1) / 2) / V, mu_k = t_k sigma (the approximation fishtest and
# cutechess use for their normalised tests; with V profiled under each hypothesis instead, a
# difference far beyond elo1 would take longer to accept than a small one). PRIOR_OUTCOMES
# pseudo-outcomes of the spread unpaired games would have keep the first few outcomes from
# deciding on a variance estimated from almost nothing (two identical bots' pairs can all have
# margin 0: without them the first pair would decide).
PRIOR_OUTCOMES = 4.0
# No verdict before this many games: sigma, the unit of the hypotheses, is estimated from the
# games themselves, and from a handful it can be far too small (simulation: tests/tournaments/
# test_sprt.py; without it, independent games accepted the wrong hypothesis a fifth of the time).
MIN_GAMES = 30
MIN_SPREAD = 1.0  # points: a margin that never varies is taken to vary by one point


def elo_to_effect(elo: float) -> float:
    """The normalised margin effect t (expected margin over its spread) of a logistic Elo."""
    return statistics.NormalDist().inv_cdf(elo_to_score(elo))


def effect_to_elo(effect: float) -> float:
    """The logistic Elo of a normalised margin effect t: the Elo of the score Phi(t)."""
    return score_to_elo(statistics.NormalDist().cdf(effect))


@dataclass
class MarginSprt:
    """A score-margin test as it goes: `add` one outcome's game margins at a time (a pair's
    two, or an independent game's one); `verdict` says when it is decided. Running sums only,
    so a long test costs nothing per outcome."""

    settings: SprtSettings = field(default_factory=SprtSettings)
    per: int = 2  # games an outcome holds: 2 for pairs, 1 for independent games
    outcomes: int = 0
    games: int = 0
    sums: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])  # x, x^2, m, m^2
    llr: float = 0.0

    def add(self, margins: Sequence[float]) -> str | None:
        """Count one outcome (its games' margins for NEW); the verdict if now decided."""
        x = sum(margins) / len(margins)
        self.outcomes += 1
        self.games += len(margins)
        self.sums[0] += x
        self.sums[1] += x * x
        self.sums[2] += sum(margins)
        self.sums[3] += sum(m * m for m in margins)
        self.llr = self._llr()
        return self.verdict()

    def spread(self) -> float:
        """sigma: the spread of one game's margin, from every game counted (at least a point)."""
        if self.games == 0:
            return MIN_SPREAD
        mean = self.sums[2] / self.games
        return max(math.sqrt(max(self.sums[3] / self.games - mean * mean, 0.0)), MIN_SPREAD)

    def _llr(self) -> float:
        n, total, squares = self.outcomes, self.sums[0], self.sums[1]
        sigma = self.spread()
        mean = total / n
        prior = PRIOR_OUTCOMES * sigma * sigma / self.per  # an unpaired outcome's variance
        variance = (max(squares - n * mean * mean, 0.0) + prior) / (n + PRIOR_OUTCOMES)
        mu0, mu1 = (elo_to_effect(e) * sigma for e in (self.settings.elo0, self.settings.elo1))
        return n * (mu1 - mu0) * (mean - (mu0 + mu1) / 2) / variance

    def verdict(self) -> str | None:
        """ "H1" or "H0" once the LLR has left its bounds (after MIN_GAMES), else None."""
        lower, upper = self.settings.bounds()
        if self.games < MIN_GAMES:
            return None
        return "H1" if self.llr >= upper else "H0" if self.llr <= lower else None

    def outcome_variance(self) -> float:
        """The observed variance of an outcome (0 before two)."""
        if self.outcomes < 2:
            return 0.0
        mean = self.sums[0] / self.outcomes
        return max(self.sums[1] / self.outcomes - mean * mean, 0.0)

    def correlation(self) -> float | None:
        """How alike the games of an outcome are, from the spreads: 2 Var(pair) / sigma^2 - 1
        (-1: a pair's margins cancel exactly, 0: like two unpaired games); None for
        independent games or before two pairs."""
        if self.per < 2 or self.outcomes < 2:
            return None
        return self.per * self.outcome_variance() / self.spread() ** 2 - 1.0

    def estimate(self) -> tuple[float, float, float]:
        """Elo, and the low and high ends of its 95% interval (via t and its standard error)."""
        if self.outcomes == 0:
            return 0.0, -ELO_CAP, ELO_CAP
        sigma = self.spread()
        effect = self.sums[0] / self.outcomes / sigma
        half = Z95 * math.sqrt(self.outcome_variance() / self.outcomes) / sigma
        return effect_to_elo(effect), effect_to_elo(effect - half), effect_to_elo(effect + half)

    def mean_margin(self) -> float:
        """NEW's mean margin in a game, in points."""
        return self.sums[2] / self.games if self.games else 0.0
