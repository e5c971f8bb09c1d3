"""The GRM-equivalent's estimators (uxbench.stats.prevalence) and the gold-set planner."""

from __future__ import annotations

import numpy as np
import pytest

from uxbench.stats.prevalence import (
    Rates,
    bootstrap,
    delta,
    fieller,
    homogeneity,
    jeffreys,
    lang_reiczigel,
    laplace,
    ppi_mean,
    qualification_size,
    rogan_gladen,
    score,
)


@pytest.mark.integration
def test_every_method_broadcasts_over_repeats() -> None:
    p = np.array([0.2, 0.3, 0.4])
    rates = Rates(p, 2000, 0.85, 200, 0.8, 300)
    for found in (
        delta(rates),
        lang_reiczigel(rates),
        fieller(rates),
        score(rates),
        bootstrap(rates, 400),
        jeffreys(rates),
        laplace(rates),
    ):
        assert found.estimate.shape == (3,)
        assert np.all(found.low <= found.estimate) and np.all(found.estimate <= found.high)
        assert np.allclose(found.estimate, np.clip(rogan_gladen(p, 0.85, 0.8), 0, 1))


def test_fieller_is_unbounded_when_j_is_not_clearly_positive() -> None:
    found = fieller(Rates(0.4, 500, 0.55, 10, 0.5, 10))
    assert (float(found.low), float(found.high)) == (0.0, 1.0)


@pytest.mark.integration
def test_the_score_interval_is_lopsided_and_reaches_zero_when_it_should() -> None:
    near_zero = score(Rates(0.02, 500, 0.9, 12, 0.99, 38))  # p below 1 − spec: the estimate is 0
    assert float(near_zero.low) == 0.0 and 0 < float(near_zero.high) < 0.15
    found = score(Rates(0.15, 500, 11 / 12, 12, 34 / 38, 38))
    assert found.high - found.estimate > found.estimate - found.low > 0


@pytest.mark.parametrize("posterior", [laplace, jeffreys])
def test_the_posterior_is_seeded_keeps_a_width_and_follows_the_level(posterior) -> None:
    rates = Rates(0.3, 500, 1.0, 12, 1.0, 38)  # no error to count in the qualification set
    found = posterior(rates)
    assert found.estimate == pytest.approx(0.3) and found.low < 0.3 < found.high
    assert (found.low, found.high) == (posterior(rates).low, posterior(rates).high)
    narrower = posterior(rates, level=0.8)
    assert found.low < narrower.low < narrower.high < found.high
    weak = posterior(Rates(0.3, 500, 0.55, 12, 0.6, 38))  # many posterior draws with J ≤ 0: left out
    assert 0.0 <= weak.low < weak.high <= 1.0


def _small_end_coverage(estimator, n_good: int, run: int, repeats: int = 10_000) -> float:
    """Coverage of π = 5% with sens = spec = 0.9, a qualification set of 50 replies of which `n_good`
    are reference-good, and a run of `run` records (issue 35's corner); in batches of 2,500 repeats."""
    rng = np.random.default_rng(35)
    pi, sens, spec, n_bad = 0.05, 0.9, 0.9, 50 - n_good
    covered = []
    for _ in range(repeats // 2500):
        p = rng.binomial(run, pi * sens + (1 - pi) * (1 - spec), 2500) / run
        se, sp = rng.binomial(n_good, sens, 2500) / n_good, rng.binomial(n_bad, spec, 2500) / n_bad
        usable = se + sp - 1 >= 0.2
        found = estimator(Rates(p[usable], run, se[usable], n_good, sp[usable], n_bad), seed=len(covered))
        covered.append((found.low <= pi) & (pi <= found.high))
    return float(np.mean(np.concatenate(covered)))


@pytest.mark.slow  # 10,000 simulated qualification sets each
@pytest.mark.parametrize("n_good, run", [(25, 500), (12, 500), (2, 2000)])
def test_the_default_covers_the_small_end_whatever_the_mix(n_good: int, run: int) -> None:
    """Jeffreys priors covered 92–93% with 25 reference-bad replies: an error rate of 1 in 10 seen
    as 0 or 1 in 25 was taken too near 0. The uniform prior keeps the corner within 93.5–96.5%
    (bench/results_coverage.md, "The small end"; ± 0.4 points of Monte-Carlo error here)."""
    assert 0.935 <= _small_end_coverage(laplace, n_good, run) <= 0.965


def test_ppi_uses_the_scores_and_beats_the_gold_labels_alone() -> None:
    """A score that tracks the label: PPI++'s interval is narrower than the gold mean's (λ = 0)."""
    rng = np.random.default_rng(3)
    y = rng.random(10_200) < 0.3
    f = np.clip(0.3 + 0.5 * (y - 0.3) + 0.1 * rng.standard_normal(y.size), 0, 1)
    tuned = ppi_mean(y[:200], f[:200], f[200:])
    gold_only = ppi_mean(y[:200], 0 * f[:200], 0 * f[200:])
    assert tuned.low <= 0.3 <= tuned.high
    assert (tuned.high - tuned.low) < 0.8 * (gold_only.high - gold_only.low)


def _simulated_half_width(sens: float, spec: float, pi: float, n: int, m: int, share: float) -> float:
    """Mean half-width of the default (uniform-prior posterior) interval over 4,000 binomial repeats."""
    rng = np.random.default_rng(11)
    reps = 4000
    p = rng.binomial(n, pi * sens + (1 - pi) * (1 - spec), reps) / n
    n_good = rng.binomial(m, share, reps)
    n_bad = m - n_good
    se = rng.binomial(n_good, sens) / n_good
    sp = rng.binomial(n_bad, spec) / n_bad
    found = laplace(Rates(p, n, se, n_good, sp, n_bad))
    return float(np.mean((found.high - found.low) / 2))


@pytest.mark.integration  # a simulation of seconds per case
@pytest.mark.parametrize(
    "sens, spec, pi, n, target",
    [(0.8, 0.7, 0.12, 2000, 0.10), (0.9, 0.9, 0.40, 4900, 0.04), (0.9, 0.9, 0.12, 500, 0.06)],
)
def test_the_planner_matches_the_simulation_within_ten_percent(
    sens: float, spec: float, pi: float, n: int, target: float
) -> None:
    m = qualification_size(target, sens, spec, pi, n, good_share=0.25)
    assert m is not None
    assert _simulated_half_width(sens, spec, pi, n, m, 0.25) == pytest.approx(target, rel=0.10)


def test_the_planner_says_when_no_gold_set_is_enough() -> None:
    assert qualification_size(0.01, 0.8, 0.7, 0.12, 500, 0.25) is None  # the run alone is wider
    assert qualification_size(0.1, 0.5, 0.5, 0.12, 500, 0.25) is None  # J = 0
    assert qualification_size(0.05, 0.9, 0.9, 0.12, 4900, 0.25) < qualification_size(
        0.025, 0.9, 0.9, 0.12, 4900, 0.25
    )


def test_homogeneity_tells_one_rate_from_several() -> None:
    assert homogeneity([0.9, 0.9, 0.9], [200, 200, 200]) > 0.9
    assert homogeneity([0.95, 0.6], [200, 200]) < 1e-6
    assert np.isnan(homogeneity([0.9], [200])) and np.isnan(homogeneity([1.0, 1.0], [50, 50]))
