"""The statistics of `bot compare` (tournaments/domain/sprt.py) against simulations with known
truth: outcomes drawn from distributions whose expected score is exactly elo0 or elo1, many tests
each, and the error rates compared with alpha and beta."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from tournaments.domain.sprt import (
    GAME_VALUES,
    MIN_GAMES,
    PAIR_VALUES,
    MarginSprt,
    Sprt,
    SprtSettings,
    effect_to_elo,
    elo_to_effect,
    elo_to_score,
    estimate,
    llr,
    pair_index,
    score_to_elo,
)

# A pair's outcome when the deal's luck is shared by its two games: mostly one win each.
PAIR_SHAPE = (0.08, 0.12, 0.6, 0.12, 0.08)
RUNS = 200
MAX_OUTCOMES = 20_000


def tilted(shape: tuple[float, ...], values: tuple[float, ...], score: float) -> list[float]:
    """`shape` tilted exponentially until its mean is `score` (a distribution with known truth)."""
    low, high = -50.0, 50.0
    for _ in range(200):
        theta = (low + high) / 2
        weights = [q * math.exp(theta * v) for q, v in zip(shape, values, strict=True)]
        mean = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        low, high = (theta, high) if mean < score else (low, theta)
    total = sum(weights)
    return [w / total for w in weights]


def run_tests(probs: list[float], settings: SprtSettings, seed: int) -> dict[str | None, int]:
    """`RUNS` sequential tests on outcomes drawn from `probs`: how many ended each way."""
    rng = random.Random(seed)
    ends: dict[str | None, int] = {"H0": 0, "H1": 0, None: 0}
    for _ in range(RUNS):
        test = Sprt(settings, PAIR_VALUES)
        verdict = None
        for _ in range(MAX_OUTCOMES):
            verdict = test.add(rng.choices(range(5), probs)[0])
            if verdict:
                break
        ends[verdict] += 1
    return ends


def upper_count(rate: float, runs: int = RUNS) -> float:
    """A count of errors a true rate of `rate` exceeds with probability about 1/1000."""
    return runs * rate + 3.1 * math.sqrt(runs * rate * (1 - rate))


SETTINGS = SprtSettings(elo0=0, elo1=40, alpha=0.05, beta=0.05)


def test_false_h1_at_most_alpha_when_elo0_is_true() -> None:
    probs = tilted(PAIR_SHAPE, PAIR_VALUES, elo_to_score(SETTINGS.elo0))
    ends = run_tests(probs, SETTINGS, seed=1)
    assert ends[None] == 0  # every test decided
    assert ends["H1"] <= upper_count(SETTINGS.alpha), ends


def test_false_h0_at_most_beta_when_elo1_is_true() -> None:
    probs = tilted(PAIR_SHAPE, PAIR_VALUES, elo_to_score(SETTINGS.elo1))
    ends = run_tests(probs, SETTINGS, seed=2)
    assert ends[None] == 0
    assert ends["H0"] <= upper_count(SETTINGS.beta), ends


def test_a_clear_difference_is_found_and_no_difference_is_rejected() -> None:
    strong = tilted(PAIR_SHAPE, PAIR_VALUES, elo_to_score(120))
    same = tilted(PAIR_SHAPE, PAIR_VALUES, 0.5)
    assert run_tests(strong, SETTINGS, seed=3)["H1"] >= RUNS - 3
    assert run_tests(same, SETTINGS, seed=4)["H0"] >= RUNS * 0.9


def test_identical_bots_on_duplicate_deals_accept_h0() -> None:
    # Deterministic twins: every pair is one win each. No other outcome was ever seen; the
    # regularisation still lets the test conclude (H0), and quickly.
    test = Sprt(SprtSettings(), PAIR_VALUES)
    verdicts = [test.add(pair_index(1.0, 0.0)) for _ in range(200)]
    assert "H0" in verdicts and "H1" not in verdicts
    assert verdicts.index("H0") < 100


def test_pairs_need_fewer_games_than_independent_games() -> None:
    """The same games, counted as pairs or as single games: when the two games of a pair are
    anti-correlated (shared deal and seat luck), the pentanomial test decides sooner."""
    rng = random.Random(5)
    probs = tilted(PAIR_SHAPE, PAIR_VALUES, elo_to_score(40))
    games = {"pairs": 0, "single": 0}
    for _ in range(100):
        pairs, single = Sprt(SETTINGS, PAIR_VALUES), Sprt(SETTINGS, GAME_VALUES)
        done = {"pairs": False, "single": False}
        while not all(done.values()):
            outcome = rng.choices(range(5), probs)[0]
            # the pair's two games (a 1/2 pair is one win each: the anti-correlated case)
            first, second = ((0, 0), (0, 1), (2, 0), (2, 1), (2, 2))[outcome]
            if not done["pairs"]:
                games["pairs"] += 2
                done["pairs"] = pairs.add(outcome) is not None
            for game in (first, second):
                if not done["single"]:
                    games["single"] += 1
                    done["single"] = single.add(game) is not None
    assert games["pairs"] < 0.6 * games["single"], games


def test_the_interval_covers_the_truth_about_95_percent() -> None:
    rng = random.Random(6)
    truth = 30.0
    probs = tilted(PAIR_SHAPE, PAIR_VALUES, elo_to_score(truth))
    covered = 0
    for _ in range(400):
        counts = [0] * 5
        for outcome in rng.choices(range(5), probs, k=200):
            counts[outcome] += 1
        _, low, high = estimate(counts, PAIR_VALUES)
        covered += low <= truth <= high
    assert 0.92 * 400 <= covered <= 0.98 * 400


def test_llr_and_estimate_in_simple_cases() -> None:
    settings = SprtSettings()
    lower, upper = settings.bounds()
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert llr([0, 0, 0, 0, 0], PAIR_VALUES, settings) == 0.0
    assert (
        llr([0, 5, 20, 15, 0], PAIR_VALUES, settings)
        > 0
        > llr([0, 15, 20, 5, 0], PAIR_VALUES, settings)
    )
    elo, low, high = estimate([0, 5, 20, 15, 0], PAIR_VALUES)
    assert low < elo < high and elo == pytest.approx(score_to_elo(0.5625))
    assert score_to_elo(1.0) == pytest.approx(1200.0) and score_to_elo(
        elo_to_score(35)
    ) == pytest.approx(35)


def test_settings_that_cannot_be_tested_say_why() -> None:
    assert SprtSettings().problems() == []
    assert "greater than" in SprtSettings(elo0=10, elo1=5).problems()[0]
    assert "probability" in SprtSettings(alpha=0).problems()[0]
    assert "probability" in SprtSettings(beta=0.7).problems()[0]


# --- The score-margin test (MarginSprt) ------------------------------------------------------

Pair = tuple[float, float]
SPREAD = 20.0  # points: a game's margin spread, about mcts against mcts in classic Azul


def margin_pair(rng: random.Random, effect: float, rho: float) -> list[float]:
    """A pair's two margins: normal, each with mean `effect` spreads and correlation `rho`."""
    z0 = rng.gauss(0, 1)
    z1 = rho * z0 + math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
    return [SPREAD * (effect + z0), SPREAD * (effect + z1)]


LOPSIDED = (0.88, (4.0, 13.0), (-26.0, 18.0))  # skewness -0.76, kurtosis 4.3
VERY_LOPSIDED = (0.85, (5.0, 12.0), (-28.0, 18.0))  # skewness -1.0, kurtosis 4.6


def skewed_game(
    rng: random.Random, effect: float, shape: tuple[float, Pair, Pair] = LOPSIDED
) -> list[float]:
    """One game's margin from a lopsided distribution (mostly close, now and then a rout the
    other way; LOPSIDED is beyond the most lopsided recording, mcts:iterations=200 against 100:
    skewness -0.67, kurtosis 4.1), moved so that its mean over its spread is `effect` exactly."""
    w, (m1, s1), (m2, s2) = shape
    mean = w * m1 + (1 - w) * m2
    spread = math.sqrt(w * (s1 * s1 + m1 * m1) + (1 - w) * (s2 * s2 + m2 * m2) - mean * mean)
    x = rng.gauss(m1, s1) if rng.random() < w else rng.gauss(m2, s2)
    return [x - mean + effect * spread]


def run_margin_tests(
    draw: Callable[[random.Random], list[float]], per: int, seed: int, runs: int = RUNS
) -> tuple[dict[str | None, int], float]:
    """`runs` margin tests on outcomes from `draw`: how many ended each way, mean games."""
    rng = random.Random(seed)
    ends: dict[str | None, int] = {"H0": 0, "H1": 0, None: 0}
    games = 0
    for _ in range(runs):
        test = MarginSprt(SETTINGS, per)
        verdict = None
        while verdict is None and test.games < MAX_OUTCOMES:
            verdict = test.add(draw(rng))
        ends[verdict] += 1
        games += test.games
    return ends, games / runs


@pytest.mark.parametrize(
    ("label", "per", "rho"),
    [("pairs that cancel", 2, -0.6), ("unrelated pairs", 2, 0.0), ("single games", 1, 0.0)],
)
def test_margin_error_rates_within_bounds(label: str, per: int, rho: float) -> None:
    t0, t1 = (elo_to_effect(e) for e in (SETTINGS.elo0, SETTINGS.elo1))

    def draw(effect: float) -> Callable[[random.Random], list[float]]:
        return lambda rng: margin_pair(rng, effect, rho)[:per]

    under_h0, _ = run_margin_tests(draw(t0), per, seed=11)
    under_h1, _ = run_margin_tests(draw(t1), per, seed=12)
    assert under_h0[None] == 0 == under_h1[None], label
    assert under_h0["H1"] <= upper_count(SETTINGS.alpha), (label, under_h0)
    assert under_h1["H0"] <= upper_count(SETTINGS.beta), (label, under_h1)


def test_margin_error_rates_hold_for_a_lopsided_margin() -> None:
    t0, t1 = (elo_to_effect(e) for e in (SETTINGS.elo0, SETTINGS.elo1))
    under_h0, _ = run_margin_tests(lambda rng: skewed_game(rng, t0), 1, seed=13)
    under_h1, _ = run_margin_tests(lambda rng: skewed_game(rng, t1), 1, seed=14)
    assert under_h0["H1"] <= upper_count(SETTINGS.alpha), under_h0
    assert under_h1["H0"] <= upper_count(SETTINGS.beta), under_h1


def test_a_very_lopsided_margin_is_the_normal_model_s_limit() -> None:
    """Known limit (docs/improving.md): the margin test's LLR is the normal one, so a margin skewed
    further than any recording accepts a false H1 more often than alpha (about 8% at skewness
    -1), though not wildly; `--statistic wdl`, which assumes nothing, has no such limit."""
    t0 = elo_to_effect(SETTINGS.elo0)
    ends, _ = run_margin_tests(lambda rng: skewed_game(rng, t0, VERY_LOPSIDED), 1, seed=13)
    assert ends["H1"] <= upper_count(2 * SETTINGS.alpha), ends


def test_no_margin_verdict_from_a_handful_of_games() -> None:
    # A spread estimated from two games can be tiny: an early verdict would be a coin toss.
    test = MarginSprt(SETTINGS, per=1)
    verdicts = [test.add([margin]) for margin in (30.0, 31.0, 29.0, 30.0)]
    assert verdicts == [None] * 4 and test.llr > SETTINGS.bounds()[1]
    for _ in range(MIN_GAMES):
        verdict = test.add([30.0])
    assert verdict == "H1"


def test_pairs_whose_margins_cancel_need_fewer_games() -> None:
    """Games to a verdict scale with 1 + rho, rho the correlation of a pair's two margins."""
    t1 = elo_to_effect(SETTINGS.elo1)
    _, paired = run_margin_tests(lambda rng: margin_pair(rng, t1, -0.6), 2, seed=15)
    _, single = run_margin_tests(lambda rng: margin_pair(rng, t1, 0.0)[:1], 1, seed=16)
    assert paired < 0.6 * single, (paired, single)


def test_identical_bots_mirrored_margins_accept_h0() -> None:
    # Shared deal and seeds: NEW's margin in one game is minus its margin in the other.
    rng = random.Random(17)
    test = MarginSprt(SprtSettings(), per=2)
    verdicts = []
    for _ in range(300):
        margin = rng.gauss(0, SPREAD)
        verdicts.append(test.add([margin, -margin]))
    assert "H0" in verdicts and "H1" not in verdicts
    assert test.correlation() == pytest.approx(-1.0)
    assert test.estimate()[0] == pytest.approx(0.0)


def test_margin_elo_interval_covers_the_truth() -> None:
    rng = random.Random(18)
    truth = 30.0
    covered = 0
    for _ in range(300):
        test = MarginSprt(SETTINGS, per=2)
        for _ in range(150):
            test.add(margin_pair(rng, elo_to_effect(truth), -0.3))
        _, low, high = test.estimate()
        covered += low <= truth <= high
    assert 0.91 * 300 <= covered <= 0.99 * 300
    assert effect_to_elo(elo_to_effect(35.0)) == pytest.approx(35.0)
