"""Which differences in a ranking are real: a test per pair of models, Holm-adjusted, the compact
letter display, separability and bootstrap rank intervals.

Runs on the same records are compared record by record (paired): the exact McNemar test for a 0/1
outcome without strata (Good%, Recovery Rate), otherwise a paired bootstrap (Avg-Acc, resampled
within each label; Δ score). Runs on different records fall back to independent bootstraps (each run
resamples its own records). Rank intervals come from the same bootstrap draws. Pure numpy/scipy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from string import ascii_lowercase

import numpy as np
from numpy.typing import ArrayLike, NDArray

ALPHA = 0.05
RESAMPLES = 2000
MCNEMAR = "exact McNemar"
PAIRED_BOOTSTRAP = "paired bootstrap"
INDEPENDENT_BOOTSTRAP = "independent bootstrap (runs on different records)"


def mcnemar_pvalues(first_only: ArrayLike, second_only: ArrayLike) -> NDArray[np.float64]:
    """Exact two-sided McNemar p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, ½); 1 with no discordant
    record. Vectorised form of `uxbench.stats.intervals.mcnemar_exact` (the same numbers)."""
    from scipy.stats import binom

    b, c = np.asarray(first_only), np.asarray(second_only)
    m = b + c
    p = np.minimum(1.0, 2 * binom.cdf(np.minimum(b, c), m, 0.5))
    return np.where(m == 0, 1.0, p)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: the i-th smallest of m p-values becomes
    max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). Controls the chance of any false "different"
    at α without assuming the tests independent."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for step, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - step) * p_values[i]))
        adjusted[i] = running
    return adjusted


def letters(count: int, separated: set[tuple[int, int]]) -> list[str]:
    """Compact letter display (Piepho's insert-absorb, 2004): models sharing a letter are not separable.

    Start with one group of all models; for each separable pair split every group holding both into
    the group without one and the group without the other; drop groups inside another. Letters go in
    the order of each group's best-ranked model (models are passed best first)."""
    groups: list[frozenset[int]] = [frozenset(range(count))]
    for i, j in sorted(separated):
        split: list[frozenset[int]] = []
        for group in groups:
            split += [group - {i}, group - {j}] if i in group and j in group else [group]
        groups = [g for g in set(split) if g and not any(g < other for other in split)]
    groups.sort(key=lambda g: sorted(g))
    names = [ascii_lowercase[k % 26] * (1 + k // 26) for k in range(len(groups))]
    return [
        "".join(name for name, g in zip(names, groups, strict=True) if model in g) for model in range(count)
    ]


def _weights(strata: NDArray | None, n: int) -> NDArray:
    """Per-record weights that make the ranking's number a weighted sum: 1/n for the mean, and with
    strata 1/(S·n_s) for the mean of the S per-stratum means."""
    if strata is None:
        return np.full(n, 1 / n)
    groups, index, sizes = np.unique(strata, return_inverse=True, return_counts=True)
    return 1 / (len(groups) * sizes[index])


def _draws(values: NDArray, strata: NDArray | None, resamples: int, rng: np.random.Generator) -> NDArray:
    """The statistic of `values` (models × records, or records) on each resample: resamples × models.

    Records are resampled within each stratum (every stratum keeps its size), so the statistic stays
    a weighted sum and all resamples are one matrix product of counts and values."""
    n = values.shape[-1]
    labels = np.zeros(n, dtype=int) if strata is None else strata
    offsets = n * np.arange(resamples)[:, None]
    picks = [
        members[rng.integers(0, len(members), size=(resamples, len(members)))] + offsets
        for members in (np.flatnonzero(labels == s) for s in np.unique(labels))
    ]
    counts = np.bincount(np.concatenate(picks, axis=1).ravel(), minlength=resamples * n)
    weighted = counts.reshape(resamples, n) * _weights(strata, n)
    return weighted @ np.atleast_2d(values).T if values.ndim > 1 else weighted @ values


def bootstrap_pvalue(observed: ArrayLike, draws: NDArray) -> NDArray:
    """Two-sided p of "no difference" from an observed difference and its bootstrap draws (first axis):
    2·Φ(−|d̂| / SD(d*)), the bootstrap standard error's z test. Not floored at 2/(B + 1), as the share of
    draws beyond 0 would be, so that Holm's adjustment over hundreds of pairs can still find one."""
    from scipy.stats import norm

    spread = draws.std(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(np.asarray(observed, dtype=float)) / spread
    return np.where(spread > 0, 2 * norm.sf(z), np.where(np.asarray(observed) == 0, 1.0, 0.0))


@dataclass(frozen=True)
class Separation:
    """Pairwise tests of a ranking's models (in the order given, best first)."""

    estimates: list[float]
    p_values: dict[tuple[int, int], float]  # Holm-adjusted, pairs (i, j) with i < j
    letters: list[str]
    rank_low: list[int]
    rank_high: list[int]
    test: str
    paired: bool

    @property
    def separated(self) -> set[tuple[int, int]]:
        return {pair for pair, p in self.p_values.items() if p < ALPHA}

    @property
    def separability(self) -> float:
        """Share of model pairs whose difference is significant (Holm, α = 0.05); NaN with one model."""
        return len(self.separated) / len(self.p_values) if self.p_values else float("nan")


def separate(
    runs: Sequence[ArrayLike],
    strata: Sequence[ArrayLike] | None = None,
    paired: bool = True,
    binary: bool = False,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Separation:
    """Test every pair of `runs` (each a per-record outcome array; paired runs are aligned on the same
    records, in the same order). `strata` (a label per record) make the statistic the mean of per-label
    means (Avg-Acc); `binary` with no strata picks the exact McNemar test for paired runs. Rank
    intervals: the 2.5th and 97.5th percentiles of each model's rank over bootstrap resamples."""
    from scipy.stats import rankdata

    rng = np.random.default_rng(seed)
    values = [np.asarray(r, dtype=float) for r in runs]
    labels = None if strata is None else [np.asarray(s) for s in strata]
    estimates = [
        float(v @ _weights(None if labels is None else labels[k], len(v))) for k, v in enumerate(values)
    ]
    if paired:
        stacked = np.stack(values)
        draws = _draws(stacked, None if labels is None else labels[0], resamples, rng)
    else:
        draws = np.stack(
            [_draws(v, None if labels is None else labels[k], resamples, rng) for k, v in enumerate(values)],
            axis=1,
        )
    pairs = list(combinations(range(len(values)), 2))
    mcnemar = paired and binary and labels is None
    if mcnemar:
        raw = [
            float(mcnemar_pvalues(np.sum(values[i] > values[j]), np.sum(values[j] > values[i])))
            for i, j in pairs
        ]
    else:
        raw = [
            float(bootstrap_pvalue(estimates[i] - estimates[j], draws[:, i] - draws[:, j])) for i, j in pairs
        ]
    adjusted = dict(zip(pairs, holm(raw), strict=True))
    separated = {pair for pair, p in adjusted.items() if p < ALPHA}
    ranks = rankdata(-draws, method="min", axis=1)
    low, high = np.percentile(ranks, [2.5, 97.5], axis=0)
    test = MCNEMAR if mcnemar else PAIRED_BOOTSTRAP if paired else INDEPENDENT_BOOTSTRAP
    return Separation(
        estimates=estimates,
        p_values=adjusted,
        letters=letters(len(values), separated),
        rank_low=[int(np.floor(x)) for x in low],
        rank_high=[int(np.ceil(x)) for x in high],
        test=test,
        paired=paired,
    )
