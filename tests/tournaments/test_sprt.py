"""The statistics of `bot compare` (tournaments/sprt.py) against simulations with known truth:
outcomes drawn from distributions whose expected score is exactly elo0 or elo1, many tests
each, and the error rates compared with alpha and beta."""

from __future__ import annotations

import math
import random

import pytest

from tournaments.sprt import (
    GAME_VALUES,
    PAIR_VALUES,
    Sprt,
    SprtSettings,
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
