"""The GRM-equivalent rate: what a qualified stand-in grader's Good% says UXBench-GRM would give.

A stand-in grader is qualified against reference grades (`uxbench/grader_check`): its
sensitivity (reference good → it says good) and specificity (reference bad → it says not
good; a failed answer counts as not good, as in Good%). On a new run it reports Good% p.
If its error rates are the same on the new model's replies, p = π·sens + (1 − π)(1 − spec)
for the reference's Good% π, so (Rogan–Gladen)

    p* = (p + spec − 1) / (sens + spec − 1), clipped to [0, 1].

The 95% interval carries the uncertainty of p, sens and spec. Its default method is the Bayesian
interval with uniform priors (`uxbench.stats.prevalence.laplace`: the posterior of p* from
Beta(k + 1, n − k + 1) draws of p, sens and spec): in the seeded simulation of bench/coverage.py it
is the one method tried whose coverage stays within 93.5–96.5% at the small end (50 qualification
replies, Good% 5%) whatever the qualification set's mix, where Jeffreys priors (the default before)
fell to 90.5–93.4% with 25 reference-bad replies, Fieller's interval ranged 93.1–97.5% and the delta
method's fell to 0.90. `method="delta"` gives the first interval,

    Var(p*) ≈ [Var(p) + p*² Var(sens) + (1 − p*)² Var(spec)] / J²,   J = sens + spec − 1,

and `fieller` / `score` / `lang_reiczigel` / `bootstrap` the others tried (docs/trust.md compares
them). Each is closed form or seeded, so the report's numbers are reproducible from the six numbers it prints.
When J < 0.2 the grader is too weak to correct: dividing by a small J turns sampling noise
into nonsense, so no number is given. Pure functions only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from uxbench.stats import prevalence
from uxbench.stats.prevalence import MIN_YOUDEN

LEVEL = 0.95
DEFAULT_METHOD = "laplace"
METHOD_NAMES = {
    "laplace": "Bayesian interval with uniform priors (2,000 posterior draws)",
    "jeffreys": "Bayesian interval with Jeffreys priors (2,000 posterior draws)",
    "score": "a score interval (Wilson's idea for a corrected rate)",
    "fieller": "Fieller's interval for the ratio",
    "delta": "delta method",
    "lang_reiczigel": "Lang–Reiczigel adjusted interval",
    "bootstrap": "parametric bootstrap (2,000 resamples)",
}


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


def corrected_rate(
    p: float,
    p_stderr: float,
    qualification: Qualification,
    level: float = LEVEL,
    method: str = DEFAULT_METHOD,
    records: int | None = None,
) -> Corrected:
    """p* and its interval for a raw rate p with standard error `p_stderr` over `records` run records
    (see the module). Without `records`, the run's size is the effective p(1 − p)/SE², which is the
    record count for a single epoch."""
    j = qualification.youden
    if not j >= MIN_YOUDEN - 1e-12:  # J = 0.2 up to rounding passes; NaN does not
        return Corrected(p, j, None, None, None)
    if method not in METHOD_NAMES:
        raise ValueError(f"GRM-equivalent method {method!r}: not one of {', '.join(METHOD_NAMES)}")
    sens, spec = qualification.sensitivity, qualification.specificity
    z = NormalDist().inv_cdf(0.5 + level / 2)
    n = records if records else _effective_records(p, p_stderr)
    rates = prevalence.Rates(p, n, sens.value, sens.n, spec.value, spec.n)
    if method == "delta":
        found = prevalence.delta(rates, p_stderr**2, z=z)
    elif method == "bootstrap":
        found = prevalence.bootstrap(rates)
    elif method in ("laplace", "jeffreys"):
        found = getattr(prevalence, method)(rates, level=level)
    else:
        found = getattr(prevalence, method)(rates, z=z)
    return Corrected(p, j, float(found.estimate), float(found.low), float(found.high))


def _effective_records(p: float, stderr: float) -> float:
    """n with p(1 − p)/n = SE²; a very large n (no run error) when the SE is 0 or unknown."""
    if not stderr or math.isnan(stderr) or p * (1 - p) == 0:
        return 1e9
    return p * (1 - p) / stderr**2
