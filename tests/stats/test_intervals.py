"""The report's Avg-Acc parts (Jeffreys) and its Δ-score bootstrap (symmetric studentised)."""

from __future__ import annotations

import numpy as np
import pytest

from uxbench.stats.intervals import bootstrap_mean, bootstrap_means, jeffreys, jeffreys_bounds, mover_mean


def test_jeffreys_is_the_beta_posterior_with_open_ends_at_zero_and_n() -> None:
    beta = pytest.importorskip("scipy.stats").beta
    assert jeffreys(7, 20) == pytest.approx((beta.ppf(0.025, 7.5, 13.5), beta.ppf(0.975, 7.5, 13.5)))
    low, high = jeffreys(0, 12)
    assert low == 0.0 and 0.1 < high < 0.25  # never a zero-width interval
    low, high = jeffreys(12, 12)
    assert high == 1.0 and 0.75 < low < 0.9
    assert jeffreys(3, 0) is None
    lows, highs = jeffreys_bounds(np.array([0, 7, 20]), 20)
    assert lows[0] == 0.0 and highs[2] == 1.0 and lows[1] == pytest.approx(jeffreys(7, 20)[0])
    mean = mover_mean([(0.95, jeffreys(95, 100)), (0.97, jeffreys(97, 100))])
    assert mean[0] < 0.96 < mean[1] < 1.0


def test_the_studentised_bootstrap_is_seeded_symmetric_and_widens_for_heavy_tails() -> None:
    rng = np.random.default_rng(4)
    light = rng.normal(0, 0.1, 100)
    heavy = np.where(rng.random(100) < 0.05, rng.choice([-0.9, 0.9], 100), rng.normal(0, 0.02, 100))
    heavy *= light.std() / heavy.std()  # the same standard deviation, heavier tails
    for values in (light, heavy):
        low, high = bootstrap_mean(list(values))
        assert (low, high) == bootstrap_mean(list(values))
        assert high - values.mean() == pytest.approx(values.mean() - low)
    normal_half = 1.96 * light.std(ddof=1) / 10
    light_half = (bootstrap_mean(list(light))[1] - bootstrap_mean(list(light))[0]) / 2
    heavy_half = (bootstrap_mean(list(heavy))[1] - bootstrap_mean(list(heavy))[0]) / 2
    assert light_half == pytest.approx(normal_half, rel=0.1) and heavy_half > 1.1 * light_half
    assert bootstrap_mean([0.25] * 30) == pytest.approx((0.25, 0.25))
    assert bootstrap_mean([0.0, 1.0]) == (0.0, 1.0)  # too few values for a finite t: their range
    assert bootstrap_mean([0.4]) is None
    lows, highs = bootstrap_means(np.stack([light, heavy]))
    assert lows.shape == (2,) and np.all(lows < highs)
