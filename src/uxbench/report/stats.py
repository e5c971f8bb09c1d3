"""Intervals the report prints: Wilson for a proportion, Newcombe's MOVER for an average of
two proportions (Task 1's Avg-Acc), and a percentile bootstrap for a mean difference
(Task 3's Δ score). All are 95% intervals that stay inside the range the value can take
and keep a width at 0% and 100%, unlike headline ± 1.96 · SE.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z95 = 1.959964
Interval = tuple[float, float]
BOOTSTRAP_RESAMPLES = 2000


def wilson(successes: float, n: int, z: float = Z95) -> Interval | None:
    """Wilson score interval for k successes in n trials:
    (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), p̂ = k/n. None when n = 0.

    `successes` may be fractional (a mean over epochs times n)."""
    if n <= 0:
        return None
    p = min(1.0, max(0.0, successes / n))
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


def mover_mean(parts: Sequence[tuple[float, Interval]]) -> Interval:
    """Interval of the mean of independent estimates from each one's own interval (Newcombe's
    method of variance estimates recovery, MOVER): for the mean m of p₁…p_k with intervals
    (lᵢ, uᵢ), m − √Σ(pᵢ − lᵢ)² / k to m + √Σ(uᵢ − pᵢ)² / k. With Wilson intervals for
    Good-Acc and Bad-Acc it gives Avg-Acc an interval that is never zero-width."""
    k = len(parts)
    mean = sum(p for p, _ in parts) / k
    low = mean - math.sqrt(sum((p - lo) ** 2 for p, (lo, _) in parts)) / k
    high = mean + math.sqrt(sum((hi - p) ** 2 for p, (_, hi) in parts)) / k
    return max(0.0, low), min(1.0, high)


def bootstrap_mean(values: Sequence[float], seed: int = 0) -> Interval | None:
    """Percentile bootstrap of the mean: the 2.5th and 97.5th percentiles of the means of
    2,000 resamples (with replacement, seeded, so a report is reproducible). No assumption
    on the shape of the distribution, which for bounded, coarse GRM scores is far from
    normal. None with fewer than 2 values."""
    if len(values) < 2:
        return None
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, len(data), size=(BOOTSTRAP_RESAMPLES, len(data)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
