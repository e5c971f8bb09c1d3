"""A true rate from an imperfect grader's rate: the GRM-equivalent's estimators and intervals.

A stand-in grader with sensitivity se and specificity sp (against UXBench-GRM) reports Good% p
on N records. If its error rates hold on these records, p = π·se + (1 − π)(1 − sp) for GRM's
Good% π, so π = (p + sp − 1)/J with Youden's J = se + sp − 1 (Rogan–Gladen). se and sp are
themselves estimated, from a qualification set of n₁ reference-good and n₀ reference-bad
replies, and each method below carries that uncertainty into a 95% interval:

- `delta`: p*, ± z·√Var with Var = [Var p + p*² se(1−se)/n₁ + (1−p*)² sp(1−sp)/n₀] / J².
- `lang_reiczigel`: the same on adjusted shares (Lang & Reiczigel 2014): p from (k + z²/2)/(N + z²),
  se and sp from (x + 1)/(n + 2), and the centre shifted by
  2z²·[π̃ se(1−se)/n₁ − (1−π̃) sp(1−sp)/n₀], the first-order bias of dividing by an estimated J.
- `bootstrap`: percentile interval of p* over parametric resamples of the three binomials.
- `laplace` and `jeffreys`: the Bayesian interval: uniform (Bayes–Laplace) or Jeffreys Beta(½, ½)
  priors on p, se and sp (se + sp > 1), and the 2.5th–97.5th percentiles of the posterior of
  π = (p + sp − 1)/J clipped to [0, 1], by Monte Carlo. `laplace` is the default of
  `uxbench.qualification.correction.corrected_rate`: of the methods tried, the one whose coverage stays
  within 93.5–96.5% at the small end of bench/coverage.py whatever the qualification set's mix, with
  no tuned constant.
- `ppi`: prediction-powered inference (PPI++, Angelopoulos et al. 2023) from the grader's continuous
  P(good) on every run record and the qualification set as gold labels (see `ppi_mean`).

Every function takes numpy arrays (or floats) and broadcasts, so `bench/coverage.py` simulates
thousands of repeats through the very code the report runs. Intervals are clipped to [0, 1].
Pure numpy; no Inspect types.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

Z95 = 1.959963984540054
SCORE_PSEUDO = 0.5  # of each outcome, in the score interval's variances
SCORE_GRID = 401  # points of π the score set is first looked for on
PSEUDO = 1.5  # pseudo-count of each outcome in Fieller's variances (see `_shrunk`)
MIN_YOUDEN = 0.2  # below this, sens + spec − 1 is too close to 0 to divide by: no number
METHODS = (
    "delta",
    "lang_reiczigel",
    "fieller",
    "bootstrap",
    "jeffreys",
    "laplace",
)  # the count-based methods (`ppi` needs per-record scores)
BOOTSTRAP_RESAMPLES = 2000
POSTERIOR_DRAWS = 2000  # Monte-Carlo draws of the Bayesian posterior (as the bootstrap's resamples)


@dataclass(frozen=True)
class Estimate:
    """Point estimates and interval ends (arrays of one shape; NaN where there is no number)."""

    estimate: NDArray[np.float64]
    low: NDArray[np.float64]
    high: NDArray[np.float64]


@dataclass(frozen=True)
class Rates:
    """What every estimator reads (floats or arrays that broadcast): the run's rate p over n records
    (n may be an effective size, p(1 − p)/SE², when epochs are averaged), and the grader's
    sensitivity over n_good reference-good and specificity over n_bad reference-bad qualification
    replies."""

    p: ArrayLike
    n: ArrayLike
    sens: ArrayLike
    n_good: ArrayLike
    spec: ArrayLike
    n_bad: ArrayLike

    def arrays(self) -> tuple[NDArray[np.float64], ...]:
        return tuple(
            np.asarray(x, dtype=float)
            for x in (self.p, self.n, self.sens, self.n_good, self.spec, self.n_bad)
        )


def _clip(value: ArrayLike) -> NDArray[np.float64]:
    return np.clip(np.asarray(value, dtype=float), 0.0, 1.0)


def rogan_gladen(p: ArrayLike, sens: ArrayLike, spec: ArrayLike) -> NDArray[np.float64]:
    """(p + spec − 1)/(sens + spec − 1), not clipped."""
    p, sens, spec = (np.asarray(x, dtype=float) for x in (p, sens, spec))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (p + spec - 1) / (sens + spec - 1)


def delta(rates: Rates, p_var: ArrayLike | None = None, z: float = Z95) -> Estimate:
    """Rogan–Gladen with the delta method's interval (module docstring); Var p is `p_var` when given
    (the run's SE², which holds epochs), else p(1 − p)/n."""
    p, n, sens, n_good, spec, n_bad = rates.arrays()
    raw = rogan_gladen(p, sens, spec)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = (
            (p * (1 - p) / n if p_var is None else np.asarray(p_var, dtype=float))
            + raw**2 * sens * (1 - sens) / n_good
            + (1 - raw) ** 2 * spec * (1 - spec) / n_bad
        ) / (sens + spec - 1) ** 2
    half = z * np.sqrt(variance)
    return Estimate(_clip(raw), _clip(raw - half), _clip(raw + half))


def lang_reiczigel(rates: Rates, z: float = Z95) -> Estimate:
    """Rogan–Gladen with Lang and Reiczigel's adjusted interval (module docstring)."""
    p, n, sens, n_good, spec, n_bad = rates.arrays()
    p_adj = (p * n + z * z / 2) / (n + z * z)
    n_adj = n + z * z
    se_adj = (sens * n_good + 1) / (n_good + 2)
    sp_adj = (spec * n_bad + 1) / (n_bad + 2)
    g, b = n_good + 2, n_bad + 2
    centre = rogan_gladen(p_adj, se_adj, sp_adj)
    with np.errstate(divide="ignore", invalid="ignore"):
        stderr = np.sqrt(
            p_adj * (1 - p_adj) / n_adj
            + centre**2 * se_adj * (1 - se_adj) / g
            + (1 - centre) ** 2 * sp_adj * (1 - sp_adj) / b
        ) / np.abs(se_adj + sp_adj - 1)
    shift = 2 * z * z * (centre * se_adj * (1 - se_adj) / g - (1 - centre) * sp_adj * (1 - sp_adj) / b)
    estimate = _clip(rogan_gladen(p, sens, spec))
    return Estimate(estimate, _clip(centre + shift - z * stderr), _clip(centre + shift + z * stderr))


def fieller(rates: Rates, z: float = Z95) -> Estimate:
    """Rogan–Gladen with Fieller's interval for a ratio: every π with (A − πJ)² ≤ z²·Var(A − πJ), where
    A = p + sp − 1, J = se + sp − 1 and Var(A − πJ) = Var p + (1 − π)² Var sp + π² Var se — a quadratic
    in π. It inverts a test whose statistic is a sum of independent binomial errors, so a noisy J
    widens the interval on the side where dividing by it stretches the estimate (the delta method
    widens both sides alike). The variances add 1.5 of each outcome (`_shrunk`), which keeps a width
    when the qualification set has no error to count (se = 1 on 12 replies) and, in the simulation,
    brings the cells with a few dozen reference-bad replies into range where plain binomial variances
    undercover.
    When J is not clearly above 0 (the quadratic's leading coefficient ≤ 0) the set is unbounded: [0, 1]."""
    p, n, sens, n_good, spec, n_bad = rates.arrays()
    a_num, j = p + spec - 1, sens + spec - 1
    var_p = _shrunk(p, n)
    var_se, var_sp = _shrunk(sens, n_good), _shrunk(spec, n_bad)
    z2 = z * z
    qa = j * j - z2 * (var_se + var_sp)
    qb = -2 * (a_num * j - z2 * var_sp)
    qc = a_num * a_num - z2 * (var_p + var_sp)
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(qb * qb - 4 * qa * qc, 0.0))
        low, high = (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)
    bounded = qa > 0
    return Estimate(
        _clip(rogan_gladen(p, sens, spec)),
        np.where(bounded, _clip(low), 0.0),
        np.where(bounded, _clip(high), 1.0),
    )


def score(rates: Rates, z: float = Z95) -> Estimate:
    """Rogan–Gladen with a score interval: every π where t(π) = p − π·se − (1 − π)(1 − sp), which is 0
    in expectation at the true π, is within z standard errors of 0, the standard error taken at the
    rates closest to the data that satisfy π (as Wilson's interval takes p(1 − p) at the p tested,
    not at p̂). Those rates are the data moved onto the line p = π·se + (1 − π)(1 − sp), each share by
    its variance (two weighted projections); their variances add 0.5 of each outcome so a share of
    12 of 12 keeps some. The set is found on a grid of π and its ends refined by bisection."""
    p, n, sens, n_good, spec, n_bad = rates.arrays()
    p_, n_, se_, ng_, sp_, nb_ = (x[..., None] for x in (p, n, sens, n_good, spec, n_bad))
    shares, sizes = (p_, se_, 1 - sp_), (n_, ng_, nb_)

    def outside(pi: NDArray) -> NDArray:
        weights = (np.ones_like(pi), -pi, -(1 - pi))
        t = p_ - pi * se_ - (1 - pi) * (1 - sp_)
        current = [np.broadcast_to(x, t.shape) for x in shares]
        for _ in range(2):
            var = [
                np.clip(x, 1e-9, 1 - 1e-9) * (1 - np.clip(x, 1e-9, 1 - 1e-9)) / m
                for x, m in zip(current, sizes, strict=True)
            ]
            total = sum(w * w * v for w, v in zip(weights, var, strict=True))
            current = [
                np.clip(x - v * w * t / total, 0, 1) for x, v, w in zip(shares, var, weights, strict=True)
            ]
        adjusted = [
            ((x * m + SCORE_PSEUDO) / (m + 2 * SCORE_PSEUDO), m + 2 * SCORE_PSEUDO)
            for x, m in zip(current, sizes, strict=True)
        ]
        var_t = sum(w * w * a * (1 - a) / m for w, (a, m) in zip(weights, adjusted, strict=True))
        return t * t > z * z * var_t

    with np.errstate(divide="ignore", invalid="ignore"):
        grid = np.linspace(0.0, 1.0, SCORE_GRID)
        inside = ~outside(grid)
        found = inside.any(axis=-1)
        first = np.argmax(inside, axis=-1)
        last = SCORE_GRID - 1 - np.argmax(inside[..., ::-1], axis=-1)
        step = grid[1]
        low = _bisect(outside, grid[first] - step, grid[first], first > 0, keep_inside_high=True)
        high = _bisect(outside, grid[last], grid[last] + step, last < SCORE_GRID - 1, keep_inside_high=False)
    estimate = _clip(rogan_gladen(p, sens, spec))
    return Estimate(estimate, np.where(found, low, 0.0), np.where(found, high, 1.0))


def _bisect(outside, a: NDArray, b: NDArray, open_end: NDArray, keep_inside_high: bool) -> NDArray:
    """The boundary of the score set between a and b (one end inside, the other outside), 30 halvings;
    the grid's end (0 or 1) where the set reaches it."""
    for _ in range(30):
        mid = (a + b) / 2
        out = outside(mid[..., None])[..., 0]
        if keep_inside_high:  # a outside, b inside
            a, b = np.where(out, mid, a), np.where(out, b, mid)
        else:  # a inside, b outside
            a, b = np.where(out, a, mid), np.where(out, mid, b)
    return np.where(open_end, b if keep_inside_high else a, 0.0 if keep_inside_high else 1.0)


def _shrunk(share: NDArray, n: NDArray) -> NDArray:
    """Binomial variance of a share of n from p̃ = (x + 1.5)/(n + 3), over n + 3: between Laplace's
    +1/+2 and Agresti–Coull's +z²/2/+z²; of the three, the one whose coverage in bench/coverage.py
    stays closest to 95% over the grid (Laplace undercovers with 12 reference-good replies,
    Agresti–Coull overcovers at a Good% of 40%)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        adjusted = (share * n + PSEUDO) / (n + 2 * PSEUDO)
        return adjusted * (1 - adjusted) / (n + 2 * PSEUDO)


def bootstrap(rates: Rates, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> Estimate:
    """Percentile interval of the clipped Rogan–Gladen estimate over parametric resamples: k* ~ Bin(n, p),
    x₁* ~ Bin(n₁, se), x₀* ~ Bin(n₀, sp), seeded so a report is reproducible."""
    p, n, sens, n_good, spec, n_bad = np.broadcast_arrays(*rates.arrays())
    rng = np.random.default_rng(seed)
    shape = (resamples, *p.shape)
    n_int, good_int, bad_int = (np.maximum(np.rint(x), 1).astype(np.int64) for x in (n, n_good, n_bad))
    p_star = rng.binomial(n_int, np.clip(p, 0, 1), size=shape) / n_int
    se_star = rng.binomial(good_int, np.clip(sens, 0, 1), size=shape) / good_int
    sp_star = rng.binomial(bad_int, np.clip(spec, 0, 1), size=shape) / bad_int
    draws = _clip(rogan_gladen(p_star, se_star, sp_star))  # a resample with J ≤ 0 gives NaN or ±inf
    low, high = np.nanpercentile(draws, [2.5, 97.5], axis=0)
    return Estimate(_clip(rogan_gladen(p, sens, spec)), low, high)


def posterior(
    rates: Rates, prior: float, draws: int = POSTERIOR_DRAWS, seed: int = 0, level: float = 0.95
) -> Estimate:
    """Rogan–Gladen with a Bayesian interval: independent Beta(a, a) priors on p, se and sp (a =
    `prior`) give the posteriors Beta(k + a, N − k + a), Beta(x₁ + a, n₁ − x₁ + a) and
    Beta(x₀ + a, n₀ − x₀ + a); the interval is the 2.5th–97.5th percentile (at `level` 0.95) of
    π = (p + sp − 1)/(se + sp − 1), clipped to [0, 1], over `draws` joint draws (seeded, so a report is
    reproducible), keeping the draws with se + sp > 1 (the prior that the grader beats chance, which a
    qualified grader with J ≥ 0.2 satisfies). The ratio's sampling distribution is skewed and bounded,
    which the Monte-Carlo posterior follows where Fieller's and the delta method's quadratic
    approximations do not. Counts may be fractional (an effective run size p(1 − p)/SE²)."""
    p, n, sens, n_good, spec, n_bad = np.broadcast_arrays(*rates.arrays())
    rng = np.random.default_rng(seed)
    shape = (draws, *p.shape)

    def drawn(share: NDArray, size: NDArray) -> NDArray:
        k = np.clip(share, 0, 1) * size
        return rng.beta(k + prior, size - k + prior, size=shape)

    p_star, se_star, sp_star = drawn(p, n), drawn(sens, n_good), drawn(spec, n_bad)
    j = se_star + sp_star - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = np.where(j > 0, _clip((p_star + sp_star - 1) / j), np.nan)
        low, high = np.nanpercentile(pi, [50 * (1 - level), 50 * (1 + level)], axis=0)
    return Estimate(_clip(rogan_gladen(p, sens, spec)), low, high)


def laplace(rates: Rates, draws: int = POSTERIOR_DRAWS, seed: int = 0, level: float = 0.95) -> Estimate:
    """`posterior` with uniform priors Beta(1, 1) (Bayes–Laplace): the default. Each share counts one
    success and one failure more than it saw, so a qualification set that shows no error, or one, among
    a few dozen replies does not pin the grader's error rate near 0; in bench/coverage.py it is the
    prior whose coverage stays within 93.5–96.5% at the small end (50 qualification replies, Good% 5%,
    sens = spec = 0.9) whatever the qualification set's mix, where Jeffreys' fell to 90.5–93.4%."""
    return posterior(rates, 1.0, draws, seed, level)


def jeffreys(rates: Rates, draws: int = POSTERIOR_DRAWS, seed: int = 0, level: float = 0.95) -> Estimate:
    """`posterior` with Jeffreys priors Beta(½, ½): the default before; it undercovers (90.5–93.4%) when
    25 of 50 qualification replies are reference-bad and the grader errs on about 1 in 10."""
    return posterior(rates, 0.5, draws, seed, level)


def ppi_mean(
    gold: ArrayLike, scored: ArrayLike, unlabelled: ArrayLike, z: float = Z95, tuned: bool = True
) -> Estimate:
    """PPI++ mean of a 0/1 gold label from a score f on every record (Angelopoulos, Duchi and Zrnic 2023):

        θ̂ = λ·mean(f over the N run records) + mean(y − λ·f over the n gold records),
        Var θ̂ = λ² Var(f_run)/N + Var(y − λf)/n,   λ = Cov(y, f) / ((1 + n/N) Var f)  (clipped to [0, 1]).

    λ = 0 is the gold mean alone, λ = 1 classic PPI. Valid when the gold records are a random sample of
    the run's records (the same distribution): the rectifier mean(y − λf) then has the run's mean. The
    last axis is the records'; leading axes broadcast (the simulation's repeats). Implemented here rather
    than with `ppi_py`, which pulls in numba, pandas, statsmodels, scikit-learn and gdown for this
    ten-line estimator."""
    y, f, fu = (np.asarray(x, dtype=float) for x in (gold, scored, unlabelled))
    n, big_n = y.shape[-1], fu.shape[-1]
    if tuned:
        fc = f - f.mean(axis=-1, keepdims=True)
        cov = (fc * (y - y.mean(axis=-1, keepdims=True))).sum(axis=-1) / (n - 1)
        var_f = np.concatenate([f, fu], axis=-1).var(axis=-1, ddof=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.clip(np.nan_to_num(cov / ((1 + n / big_n) * var_f)), 0.0, 1.0)
    else:
        lam = np.ones(y.shape[:-1])
    lam_k = lam[..., None]
    rectifier = y - lam_k * f
    estimate = lam * fu.mean(axis=-1) + rectifier.mean(axis=-1)
    stderr = np.sqrt(lam**2 * fu.var(axis=-1, ddof=1) / big_n + rectifier.var(axis=-1, ddof=1) / n)
    return Estimate(_clip(estimate), _clip(estimate - z * stderr), _clip(estimate + z * stderr))


def qualification_size(
    half_width: float,
    sens: float,
    spec: float,
    prevalence: float,
    run_records: int,
    good_share: float,
    z: float = Z95,
) -> int | None:
    """Qualification replies needed for a GRM-equivalent interval of ± `half_width` (the gold-set planner).

    Solves the delta variance for the qualification size m, with n₁ = g·m reference-good and
    n₀ = (1 − g)·m reference-bad replies (g = `good_share`, the qualification set's reference Good%) and
    p = π·se + (1 − π)(1 − sp) on N = `run_records`:

        m = [π² se(1−se)/g + (1−π)² sp(1−sp)/(1−g)] / [J² (h/z)² − p(1−p)/N].

    None when no qualification set is enough: the run's own sampling error alone is wider than ± h, or
    J ≤ 0."""
    j = sens + spec - 1
    p = prevalence * sens + (1 - prevalence) * (1 - spec)
    room = j * j * (half_width / z) ** 2 - p * (1 - p) / run_records
    if j <= 0 or room <= 0:
        return None
    need = prevalence**2 * sens * (1 - sens) / good_share + (1 - prevalence) ** 2 * spec * (1 - spec) / (
        1 - good_share
    )
    return max(1, int(np.ceil(need / room)))


def homogeneity(shares: ArrayLike, totals: ArrayLike) -> float:
    """p-value of Pearson's χ² test that K groups share one rate (the 2 × K table of successes and
    failures, K − 1 degrees of freedom): whether a grader's sensitivity (or specificity) differs between
    the models whose replies it was qualified on. Groups without a reply are left out; NaN with fewer
    than two groups or when every reply has the same outcome. An approximation: with under about five
    expected errors a model it understates the p-value's uncertainty."""
    from scipy.stats import chi2_contingency

    share, total = np.asarray(shares, dtype=float), np.asarray(totals, dtype=float)
    keep = total > 0
    successes = np.rint(share[keep] * total[keep])
    table = np.stack([successes, total[keep] - successes])
    if table.shape[1] < 2 or np.any(table.sum(axis=1) == 0):
        return float("nan")
    return float(chi2_contingency(table, correction=False).pvalue)
