"""Formulas on plain lists: ranking, calibration and agreement statistics.

Pure functions with no Inspect types, shared by Task 1's metrics, the grader panels, grader
qualification, the report and the pipeline's audit. NaN where a statistic is undefined (no
samples, or one class only) so a caller can tell "not computable" from 0.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

NAN = float("nan")
BINS = 10


def auroc(p: Sequence[float], y: Sequence[int]) -> float:
    """Chance that a random liked reply gets a higher P(good) than a random disliked one (ties ½).

    Mann–Whitney form: (R₁ − n₁(n₁+1)/2) / (n₁ n₀), R₁ = sum of the liked replies' mid-ranks.
    """
    n1 = sum(y)
    n0 = len(y) - n1
    if not n1 or not n0:
        return NAN
    order = sorted(range(len(p)), key=lambda i: p[i])
    ranks = [0.0] * len(p)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and p[order[end + 1]] == p[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1  # mid-rank of a run of ties
        start = end + 1
    r1 = sum(r for r, label in zip(ranks, y, strict=True) if label)
    return (r1 - n1 * (n1 + 1) / 2) / (n1 * n0)


def brier(p: Sequence[float], y: Sequence[int]) -> float:
    """Mean squared error of P(good) against the outcome: Σ (pᵢ − yᵢ)² / n."""
    return sum((pi - yi) ** 2 for pi, yi in zip(p, y, strict=True)) / len(p) if p else NAN


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int
    confidence: float  # mean P(good) in the bin (NaN when empty)
    frequency: float  # share of liked replies in the bin (NaN when empty)


def reliability_bins(p: Sequence[float], y: Sequence[int], bins: int = BINS) -> list[Bin]:
    """Equal-width bins of P(good): [0, 0.1), [0.1, 0.2), …, [0.9, 1.0] (1.0 in the last)."""
    members: list[list[int]] = [[] for _ in range(bins)]
    for i, pi in enumerate(p):
        members[min(int(pi * bins), bins - 1)].append(i)
    return [
        Bin(
            low=b / bins,
            high=(b + 1) / bins,
            count=len(m),
            confidence=sum(p[i] for i in m) / len(m) if m else NAN,
            frequency=sum(y[i] for i in m) / len(m) if m else NAN,
        )
        for b, m in enumerate(members)
    ]


def ece(p: Sequence[float], y: Sequence[int], bins: int = BINS) -> float:
    """Expected calibration error: Σ_b (n_b / n) · |mean y_b − mean p_b| over equal-width bins."""
    if not p:
        return NAN
    return sum(
        b.count / len(p) * abs(b.frequency - b.confidence) for b in reliability_bins(p, y, bins) if b.count
    )


def mcc(predicted: Sequence[Hashable], actual: Sequence[Hashable]) -> float:
    """Matthews correlation (Gorodkin's K-category form; the usual one for two categories):
    (c·s − Σₖ pₖtₖ) / √((s² − Σₖ pₖ²)(s² − Σₖ tₖ²)), s samples, c correct, pₖ / tₖ the
    counts of category k among the predictions / the truth. 0 when a side has one category."""
    s = len(actual)
    if not s:
        return NAN
    c = sum(a == b for a, b in zip(predicted, actual, strict=True))
    pk, tk = Counter(predicted), Counter(actual)
    numerator = c * s - sum(pk[k] * tk[k] for k in pk.keys() | tk.keys())
    denominator = math.sqrt(
        (s * s - sum(v * v for v in pk.values())) * (s * s - sum(v * v for v in tk.values()))
    )
    return numerator / denominator if denominator else 0.0


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's κ = (p_o − p_e) / (1 − p_e): p_o the share of agreements, p_e = Σₖ (aₖ/n)(bₖ/n)
    the agreement expected from each rater's own category shares. 1 when p_e = 1 and they agree."""
    n = len(first)
    if not n:
        return NAN
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    ca, cb = Counter(first), Counter(second)
    expected = sum(ca[k] * cb[k] for k in ca) / (n * n)
    if expected == 1:
        return 1.0 if observed == 1 else NAN
    return (observed - expected) / (1 - expected)


def krippendorff_alpha(units: Sequence[Sequence[Hashable]]) -> float:
    """Krippendorff's α for nominal data, α = 1 − D_o / D_e, from the coincidence matrix.

    `units` holds, per record, the values the annotators gave it (missing ones left out).
    Units with fewer than 2 values are not pairable and drop out. With o_ck the coincidences
    (each ordered pair of values within a unit of m values counts 1/(m − 1)), n_c = Σ_k o_ck and
    n = Σ_c n_c: D_o = Σ_{c≠k} o_ck / n and D_e = Σ_{c≠k} n_c n_k / (n (n − 1)). NaN with no
    pairable unit or when every value is the same (no variation to agree on)."""
    coincidences: Counter[tuple[Hashable, Hashable]] = Counter()
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for i, c in enumerate(values):
            for j, k in enumerate(values):
                if i != j:
                    coincidences[c, k] += 1 / (m - 1)
    totals: Counter[Hashable] = Counter()
    for (c, _), count in coincidences.items():
        totals[c] += count
    n = sum(totals.values())
    if n <= 1:
        return NAN
    observed = sum(count for (c, k), count in coincidences.items() if c != k) / n
    expected = sum(totals[c] * totals[k] for c in totals for k in totals if c != k) / (n * (n - 1))
    if expected == 0:
        return NAN
    return 1 - observed / expected
