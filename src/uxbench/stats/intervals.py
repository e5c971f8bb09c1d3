"""Intervals and tests the report prints: Wilson for a proportion, Newcombe's MOVER of two Jeffreys
intervals for an average of two proportions (Task 1's Avg-Acc), a symmetric studentised bootstrap
for a mean difference (Task 3's Δ score), and for two judges on the same records Newcombe's paired
interval of the difference of their accuracies with the exact McNemar test. All intervals are 95%, keep
a width at 0% and 100%, unlike value ± 1.96 · SE, and stay inside the range the value can take (the
bootstrap's once the report clips it to the scores' range).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

Z95 = 1.959964
Interval = tuple[float, float]
BOOTSTRAP_RESAMPLES = 2000


def wilson(successes: float, n: int, z: float = Z95) -> Interval | None:
    """Wilson score interval for k successes in n trials:
    (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), p̂ = k/n. None when n = 0.

    `successes` may be fractional (a mean over epochs times n)."""
    if n <= 0:
        return None
    low, high = wilson_bounds(successes, n, z)
    return float(low), float(high)


def wilson_bounds(successes: ArrayLike, n: ArrayLike, z: float = Z95) -> tuple[NDArray, NDArray]:
    """`wilson` on arrays (n > 0), for the coverage simulation's thousands of repeats at once."""
    n = np.asarray(n, dtype=float)
    p = np.clip(np.asarray(successes, dtype=float) / n, 0.0, 1.0)
    centre = p + z * z / (2 * n)
    spread = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return np.maximum(0.0, (centre - spread) / denominator), np.minimum(1.0, (centre + spread) / denominator)


def jeffreys(successes: float, n: int) -> Interval | None:
    """Jeffreys interval for k successes in n trials: the 2.5th and 97.5th percentiles of the
    Beta(k + ½, n − k + ½) posterior (the Jeffreys prior), with 0 as the low end at k = 0 and 1 as
    the high end at k = n (Brown, Cai and DasGupta 2001). Avg-Acc's parts: at 95%+ accuracy on 100
    records its MOVER covers 95% where Wilson's falls to 93.4% (bench/results_coverage.md), and it
    is no wider elsewhere. None when n = 0; `successes` may be fractional."""
    if n <= 0:
        return None
    low, high = jeffreys_bounds(successes, n)
    return float(low), float(high)


def jeffreys_bounds(successes: ArrayLike, n: ArrayLike, level: float = 0.95) -> tuple[NDArray, NDArray]:
    """`jeffreys` on arrays (n > 0)."""
    from scipy.stats import beta  # imported here: scipy is slow to import and rarely needed

    n = np.asarray(n, dtype=float)
    k = np.clip(np.asarray(successes, dtype=float), 0.0, n)
    tail = (1 - level) / 2
    low = np.where(k > 0, beta.ppf(tail, k + 0.5, n - k + 0.5), 0.0)
    high = np.where(k < n, beta.ppf(1 - tail, k + 0.5, n - k + 0.5), 1.0)
    return low, high


def mover_mean(parts: Sequence[tuple[float, Interval]], bounds: Interval = (0.0, 1.0)) -> Interval:
    """Interval of the mean of independent estimates from each one's own interval (Newcombe's
    method of variance estimates recovery, MOVER): for the mean m of p₁…p_k with intervals
    (lᵢ, uᵢ), m − √Σ(pᵢ − lᵢ)² / k to m + √Σ(uᵢ − pᵢ)² / k, kept inside `bounds`. With Wilson
    intervals for Good-Acc and Bad-Acc it gives Avg-Acc an interval that is never zero-width."""
    k = len(parts)
    mean = sum(p for p, _ in parts) / k
    low = mean - np.sqrt(sum((p - lo) ** 2 for p, (lo, _) in parts)) / k
    high = mean + np.sqrt(sum((hi - p) ** 2 for p, (_, hi) in parts)) / k
    low, high = np.maximum(bounds[0], low), np.minimum(bounds[1], high)
    return (float(low), float(high)) if np.ndim(low) == 0 else (low, high)  # arrays: the simulation


def paired_difference(
    both: int, first_only: int, second_only: int, neither: int, z: float = Z95
) -> Interval | None:
    """Interval of p₁ − p₂ for two binary outcomes on the same n records (a: both 1, b: only the
    first, c: only the second, d: neither; p₁ = (a + b)/n, p₂ = (a + c)/n): Newcombe's method 10
    (1998), MOVER over the two Wilson intervals (lᵢ, uᵢ) with the records' correlation φ,

        p₁ − p₂ − √((p₁ − l₁)² − 2φ(p₁ − l₁)(u₂ − p₂) + (u₂ − p₂)²)  to
        p₁ − p₂ + √((u₁ − p₁)² − 2φ(u₁ − p₁)(p₂ − l₂) + (p₂ − l₂)²),

    φ = (ad − bc)/√((a+b)(c+d)(a+c)(b+d)) with Newcombe's correction max(ad − bc − n/2, 0) in
    the numerator when ad > bc, and 0 when a margin is empty. A closed form that keeps its
    coverage with tens of records and stays in [−1, 1]. None for n = 0."""
    n = both + first_only + second_only + neither
    if n == 0:
        return None
    first, second = (both + first_only) / n, (both + second_only) / n
    l1, u1 = wilson(both + first_only, n, z) or (0.0, 1.0)
    l2, u2 = wilson(both + second_only, n, z) or (0.0, 1.0)
    margins = (both + first_only) * (second_only + neither) * (both + second_only) * (first_only + neither)
    cross = both * neither - first_only * second_only
    phi = (max(cross - n / 2, 0.0) if cross > 0 else cross) / math.sqrt(margins) if margins else 0.0
    difference = first - second
    low = difference - math.sqrt(
        (first - l1) ** 2 - 2 * phi * (first - l1) * (u2 - second) + (u2 - second) ** 2
    )
    high = difference + math.sqrt(
        (u1 - first) ** 2 - 2 * phi * (u1 - first) * (second - l2) + (second - l2) ** 2
    )
    return max(-1.0, low), min(1.0, high)


def mcnemar_exact(first_only: int, second_only: int) -> float:
    """Two-sided exact McNemar test: the binomial test of b = `first_only` among the m = b + c
    discordant records against ½, p = min(1, 2·P(X ≤ min(b, c))) with X ~ Bin(m, ½); 1 when no
    record is discordant. Exact, so it holds at the few dozen records a person judges."""
    discordant = first_only + second_only
    if discordant == 0:
        return 1.0
    from scipy.stats import binomtest  # imported here: scipy is slow to import and rarely needed

    return float(binomtest(first_only, discordant, 0.5).pvalue)


def bootstrap_mean(values: Sequence[float], seed: int = 0) -> Interval | None:
    """Symmetric studentised bootstrap of the mean (Hall 1988): m ± q·s/√n, q the 95th percentile of
    |m* − m| / (s*/√n) over 2,000 resamples (with replacement, seeded, so a report is reproducible),
    s the values' standard deviation and s* each resample's. It learns from the data how heavy the
    tails of the t statistic are, which for bounded, coarse GRM score differences (mostly 0, now and
    then ±0.9) are heavier than normal: there the percentile bootstrap covered 93% with 100 records
    (bench/results_coverage.md). None with fewer than 2 values."""
    if len(values) < 2:
        return None
    low, high = bootstrap_means(np.asarray(values, dtype=float), seed=seed)
    return float(low), float(high)


def bootstrap_means(
    values: NDArray, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> tuple[NDArray, NDArray]:
    """`bootstrap_mean` over the last axis of an array (leading axes: independent samples, as the
    coverage simulation's repeats). All values equal: the zero-width interval at their mean. With so few
    values that over 5% of the resamples repeat one value (s* = 0, t infinite: n ≤ 3), the values'
    range."""
    rng = np.random.default_rng(seed)
    n = values.shape[-1]
    picks = rng.integers(0, n, size=(resamples, n))
    # each resample as counts of every record, so all means and mean squares are two matrix products
    counts = np.bincount((picks + n * np.arange(resamples)[:, None]).ravel(), minlength=resamples * n)
    counts = counts.reshape(resamples, n)
    flat = np.moveaxis(values, -1, 0).reshape(n, -1)
    means, squares = counts @ flat / n, counts @ (flat * flat) / n
    mean = flat.mean(axis=0)
    stderr = flat.std(axis=0, ddof=1) / np.sqrt(n)
    resampled = np.sqrt(np.maximum(squares - means * means, 0.0) / (n - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(means - mean) / resampled  # a resample of one repeated value: inf, a far tail
        t = np.where(np.abs(means - mean) <= 1e-12 * (1 + np.abs(mean)), 0.0, t)
        half = np.percentile(t, 95, axis=0) * stderr
    finite = np.isfinite(half)
    low = np.where(finite, mean - half, flat.min(axis=0))
    high = np.where(finite, mean + half, flat.max(axis=0))
    return low.reshape(values.shape[:-1]), high.reshape(values.shape[:-1])


def bootstrap_units(
    units: Sequence[Sequence[object]], statistic: Callable[[list[Sequence[object]]], float], seed: int = 0
) -> Interval | None:
    """Percentile bootstrap of a statistic over units (records), resampled with replacement:
    the 2.5th and 97.5th percentiles of 2,000 seeded resamples, leaving out resamples where
    the statistic is undefined (NaN). For agreement among annotators the record is the unit,
    so the interval reflects which records were judged. None with fewer than 2 units."""
    if len(units) < 2:
        return None
    rng = np.random.default_rng(seed)
    values = []
    for picks in rng.integers(0, len(units), size=(BOOTSTRAP_RESAMPLES, len(units))):
        value = statistic([units[i] for i in picks])
        if not math.isnan(value):
            values.append(value)
    if not values:
        return None
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)
