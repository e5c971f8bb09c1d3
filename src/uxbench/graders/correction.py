"""The GRM-equivalent rate: what a qualified stand-in grader's Good% says UXBench-GRM would give.

A stand-in grader is qualified against reference grades (`uxbench/grader_check`): its
sensitivity (reference good → it says good) and specificity (reference bad → it says not
good; a failed answer counts as not good, as in Good%). On a new run it reports Good% p.
If its error rates are the same on the new model's replies, p = π·sens + (1 − π)(1 − spec)
for the reference's Good% π, so (Rogan–Gladen)

    p* = (p + spec − 1) / (sens + spec − 1), clipped to [0, 1].

The 95% interval is the delta method's: p, sens and spec are independent binomial
estimates, and

    Var(p*) ≈ [Var(p) + p*² Var(sens) + (1 − p*)² Var(spec)] / J²,   J = sens + spec − 1,

with Var(sens) = sens(1 − sens)/n_good and Var(spec) = spec(1 − spec)/n_bad over the
qualification's reference-good and reference-bad replies; the interval p* ± z·√Var is
clipped to [0, 1]. Closed form, so the report's numbers are exactly reproducible from the
six numbers it prints. When J < 0.2 the grader is too weak to correct: dividing by a small
J turns sampling noise into nonsense, so no number is given. Pure functions only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

MIN_YOUDEN = 0.2  # below this, sens + spec − 1 is too close to 0 to divide by
LEVEL = 0.95


@dataclass(frozen=True)
class Proportion:
    """A binomial share estimated from n observations."""

    value: float
    n: int

    @property
    def variance(self) -> float:
        return self.value * (1 - self.value) / self.n if self.n else math.inf


@dataclass(frozen=True)
class Qualification:
    """A grader's error rates against the reference, from a grader_check run."""

    sensitivity: Proportion  # over the reference-good replies
    specificity: Proportion  # over the reference-bad replies

    @property
    def youden(self) -> float:
        """J = sens + spec − 1: 1 for a perfect grader, 0 for one that ignores the reply."""
        return self.sensitivity.value + self.specificity.value - 1


@dataclass(frozen=True)
class Corrected:
    """A raw rate and its GRM-equivalent estimate; `estimate` is None when the grader is too weak."""

    raw: float
    youden: float
    estimate: float | None
    low: float | None
    high: float | None

    @property
    def too_weak(self) -> bool:
        return self.estimate is None


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def corrected_rate(
    p: float, p_stderr: float, qualification: Qualification, level: float = LEVEL
) -> Corrected:
    """p* and its delta-method interval for a raw rate p with standard error `p_stderr` (see the module)."""
    j = qualification.youden
    if not j >= MIN_YOUDEN - 1e-12:  # J = 0.2 up to rounding passes; NaN does not
        return Corrected(p, j, None, None, None)
    sens, spec = qualification.sensitivity, qualification.specificity
    unclipped = (p + spec.value - 1) / j
    variance = (p_stderr**2 + unclipped**2 * sens.variance + (1 - unclipped) ** 2 * spec.variance) / j**2
    half = NormalDist().inv_cdf(0.5 + level / 2) * math.sqrt(variance)
    return Corrected(p, j, _clip(unclipped), _clip(unclipped - half), _clip(unclipped + half))
