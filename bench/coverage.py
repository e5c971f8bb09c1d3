"""Do the report's 95% intervals cover 95% of the time? A seeded simulation of every interval it prints.

    python bench/coverage.py --out bench/results_coverage.md          # the full grid, 2,000 repeats a cell
    python bench/coverage.py --quick --out /tmp/coverage.md           # a few cells, 200 repeats (the test)
    python bench/coverage.py --small-end 10000                        # issue 35's corner, printed

Each cell draws all its repeats at once as numpy arrays and runs them through the very functions the
report calls (`uxbench.stats.intervals`, `uxbench.stats.prevalence`, `uxbench.stats.pairwise`):

- Good% / Recovery Rate: Wilson, k ~ Bin(N, π).
- Avg-Acc: MOVER of the Good-Acc and Bad-Acc Jeffreys intervals (the report's) and of their Wilsons
  (the report's before), 1,000 liked + 1,000 disliked (the paper's Task 1) and 100 + 100.
- Δ score: symmetric studentised bootstrap (the report's) and percentile bootstrap (the report's
  before) of the mean of score(repair) − score(failed) per record, scores P(good) ∈ [0, 1] from
  logit-normal draws. 500 resamples in the simulation (the report takes 2,000): fewer resamples make
  the interval's ends noisier, which can only lower coverage, so a cell that passes here passes in the
  report.
- GRM-equivalent Good%: true GRM Good% π, stand-in grader scores P(good) = sigmoid(μ_y + 1.5·ε),
  ε ~ N(0, 1), with μ₁ = 1.5·Φ⁻¹(sens), μ₀ = −1.5·Φ⁻¹(spec), so that "good" at P > ½ has exactly the
  cell's sensitivity and specificity. The run grades N records; the qualification set (grader_check
  on published replies) has m replies whose reference Good% is 25% (the published models' mix), so
  n_good ~ Bin(m, 0.25). Methods: the posterior with uniform priors (the report's, its 2,000 draws),
  with Jeffreys priors (the report's before), Fieller (the report's before that), score,
  delta, Lang–Reiczigel, parametric bootstrap (500 resamples, the same
  reason), PPI++ (qualification from the run's own distribution, its assumption, and from the published
  mix, which is what a grader_check gives). Repeats where J < 0.2 give no number (counted).
- Paired tests on two models' records: exact McNemar (0/1 outcomes, correlated through a shared
  record difficulty) and the paired bootstrap of Avg-Acc / Δ score: size at no difference and power at
  a known one.

Coverage is the share of repeats whose interval holds the truth, ± its Monte-Carlo error
1.96·√(c(1 − c)/R). Goal: every cell within 93.5–96.5%.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.special import expit
from scipy.stats import norm

from uxbench.stats.intervals import bootstrap_means, jeffreys_bounds, mover_mean, wilson_bounds
from uxbench.stats.pairwise import bootstrap_pvalue, mcnemar_pvalues
from uxbench.stats.prevalence import (
    MIN_YOUDEN,
    Estimate,
    Rates,
    bootstrap,
    delta,
    fieller,
    jeffreys,
    lang_reiczigel,
    laplace,
    ppi_mean,
    score,
)

SIGMA = 1.5  # spread of the grader's logit score
QUAL_GOOD = 0.25  # reference Good% of a qualification set drawn from the published models' replies
ACCURACY = [(0.8, 0.7), (0.9, 0.9), (0.6, 0.75)]
PREVALENCE = [0.05, 0.12, 0.40]
QUAL_SIZES = [50, 100, 200, 1000]
RUN_SIZES = [500, 2000, 4900]
SIM_RESAMPLES = 500
PPI_SAME = "PPI++ (gold from the run's records)"
DEFAULT = "uniform-prior posterior"  # the report's GRM-equivalent interval
CHUNK = 250  # repeats per batch: bounds memory at ~4,900 × 250 floats per array


@dataclass
class Result:
    group: str
    cell: str
    method: str
    covered: np.ndarray  # bool per repeat with a number
    width: np.ndarray
    missing: int = 0

    @property
    def coverage(self) -> float:
        return float(self.covered.mean()) if self.covered.size else float("nan")

    @property
    def error(self) -> float:
        c, r = self.coverage, max(self.covered.size, 1)
        return 1.96 * np.sqrt(c * (1 - c) / r)

    @property
    def ok(self) -> bool:
        return 0.935 <= self.coverage <= 0.965


def _covers(truth: float, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    return (low <= truth + 1e-12) & (truth - 1e-12 <= high)


def rates(repeats: int, rng: np.random.Generator) -> list[Result]:
    out = []
    for pi in [0.05, 0.12, 0.40, 0.70]:
        for n in [500, 1000, 4900]:
            k = rng.binomial(n, pi, size=repeats)
            low, high = wilson_bounds(k, n)
            out.append(
                Result(
                    "Good% / Recovery Rate",
                    f"π {pi:.0%}, N {n}",
                    "Wilson",
                    _covers(pi, low, high),
                    high - low,
                )
            )
    return out


def avg_acc(repeats: int, rng: np.random.Generator) -> list[Result]:
    out = []
    for good, bad in [(0.6, 0.8), (0.9, 0.5), (0.95, 0.97), (0.3, 0.9)]:
        for n in [100, 1000]:
            kg, kb = rng.binomial(n, good, size=repeats), rng.binomial(n, bad, size=repeats)
            pg, pb = kg / n, kb / n
            truth = (good + bad) / 2
            cell = f"Good-Acc {good:.0%}, Bad-Acc {bad:.0%}, {n} + {n}"
            for method, bounds in (
                ("MOVER of two Jeffreys", jeffreys_bounds),
                ("MOVER of two Wilsons", wilson_bounds),
            ):
                low, high = mover_mean([(pg, bounds(kg, n)), (pb, bounds(kb, n))])
                out.append(Result("Avg-Acc", cell, method, _covers(truth, low, high), high - low))
    return out


def _percentile_bootstrap(values: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The report's Δ-score interval before: 2.5th–97.5th percentile of the resampled means."""
    picks = np.random.default_rng(seed).integers(0, values.shape[-1], size=(SIM_RESAMPLES, values.shape[-1]))
    means = np.stack([values[:, row].mean(axis=1) for row in picks])
    return np.percentile(means, 2.5, axis=0), np.percentile(means, 97.5, axis=0)


def _scores(y: np.ndarray, mu1: float, mu0: float, rng: np.random.Generator) -> np.ndarray:
    return expit(np.where(y, mu1, mu0) + SIGMA * rng.standard_normal(y.shape))


def delta_score(repeats: int, rng: np.random.Generator) -> list[Result]:
    """Δ = P(good | repair) − P(good | failed), each a logit-normal score (true mean by quadrature)."""
    out = []
    grid = np.linspace(-8, 8, 4001)
    weights = norm.pdf(grid) * (grid[1] - grid[0])
    for mu_fail, mu_fix in [(-2.0, -1.0), (-1.5, 0.5), (-3.0, -3.0)]:
        truth = float(np.sum(weights * (expit(mu_fix + SIGMA * grid) - expit(mu_fail + SIGMA * grid))))
        for n in [100, 500]:
            found: dict[str, tuple[list, list]] = {}
            for start in range(0, repeats, CHUNK):
                size = min(CHUNK, repeats - start)
                fail = expit(mu_fail + SIGMA * rng.standard_normal((size, n)))
                fix = expit(mu_fix + SIGMA * rng.standard_normal((size, n)))
                seed = int(rng.integers(1 << 31))
                for method, (low, high) in (
                    (
                        "studentised bootstrap",
                        bootstrap_means(fix - fail, resamples=SIM_RESAMPLES, seed=seed),
                    ),
                    ("percentile bootstrap", _percentile_bootstrap(fix - fail, seed)),
                ):
                    covered, widths = found.setdefault(method, ([], []))
                    covered.append(_covers(truth, low, high))
                    widths.append(high - low)
            cell = f"Δ {truth:+.3f}, N {n}"
            out += [
                Result("Δ score", cell, method, np.concatenate(c), np.concatenate(w))
                for method, (c, w) in found.items()
            ]
    return out


@dataclass(frozen=True)
class Cell:
    sens: float
    spec: float
    pi: float
    qual: int
    run: int

    @property
    def name(self) -> str:
        return f"sens/spec {self.sens}/{self.spec}, π {self.pi:.0%}, m {self.qual}, N {self.run}"


def _qualification(cell: Cell, good_share: float, size: int, rng: np.random.Generator):
    mu1, mu0 = SIGMA * norm.ppf(cell.sens), -SIGMA * norm.ppf(cell.spec)
    y = rng.random((size, cell.qual)) < good_share
    f = _scores(y, mu1, mu0, rng)
    said = f > 0.5
    n_good, n_bad = y.sum(axis=1), (~y).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        sens = (said & y).sum(axis=1) / n_good
        spec = (~said & ~y).sum(axis=1) / n_bad
    return y, f, sens, n_good, spec, n_bad


def grm_equivalent(cell: Cell, repeats: int, rng: np.random.Generator) -> list[Result]:
    mu1, mu0 = SIGMA * norm.ppf(cell.sens), -SIGMA * norm.ppf(cell.spec)
    found: dict[str, tuple[list, list, int]] = {}

    def keep(method: str, est: Estimate, usable: np.ndarray) -> None:
        covered, widths, missing = found.setdefault(method, ([], [], 0))
        covered.append(_covers(cell.pi, est.low, est.high)[usable])
        widths.append((est.high - est.low)[usable])
        found[method] = (covered, widths, missing + int((~usable).sum()))

    for start in range(0, repeats, CHUNK):
        size = min(CHUNK, repeats - start)
        y = rng.random((size, cell.run)) < cell.pi
        f = _scores(y, mu1, mu0, rng)
        p = (f > 0.5).mean(axis=1)
        _, _, sens, n_good, spec, n_bad = _qualification(cell, QUAL_GOOD, size, rng)
        usable = (n_good > 0) & (n_bad > 0) & (sens + spec - 1 >= MIN_YOUDEN)
        rates = Rates(p, cell.run, sens, n_good, spec, n_bad)
        keep(DEFAULT, laplace(rates, seed=int(rng.integers(1 << 31))), usable)
        keep("Jeffreys posterior", jeffreys(rates, seed=int(rng.integers(1 << 31))), usable)
        keep("delta", delta(rates), usable)
        keep("Lang–Reiczigel", lang_reiczigel(rates), usable)
        keep("Fieller", fieller(rates), usable)
        keep("score", score(rates), usable)
        seed = int(rng.integers(1 << 31))
        keep(
            "parametric bootstrap",
            bootstrap(rates, SIM_RESAMPLES, seed),
            usable,
        )
        everyone = np.ones(size, dtype=bool)
        y_same, f_same, *_ = _qualification(cell, cell.pi, size, rng)
        keep(PPI_SAME, ppi_mean(y_same, f_same, f), everyone)
        y_mix, f_mix, *_ = _qualification(cell, QUAL_GOOD, size, rng)
        keep("PPI++ (gold from the published mix)", ppi_mean(y_mix, f_mix, f), everyone)
    return [
        Result("GRM-equivalent", cell.name, method, np.concatenate(c), np.concatenate(w), missing)
        for method, (c, w, missing) in found.items()
    ]


def _correlated_pair(n: int, acc: tuple[float, float], size: int, rng: np.random.Generator):
    """Two models' 0/1 correctness on the same records, correlated through a shared record difficulty."""
    difficulty = rng.standard_normal((size, n))
    first = norm.ppf(acc[0]) + difficulty + rng.standard_normal((size, n)) > 0
    second = norm.ppf(acc[1]) + difficulty + rng.standard_normal((size, n)) > 0
    return first, second


def paired_tests(repeats: int, rng: np.random.Generator) -> list[str]:
    """Size and power of the paired tests; rows for the markdown table."""
    rows = []
    for n, accs in [(200, (0.70, 0.70)), (2000, (0.70, 0.70)), (200, (0.70, 0.80)), (2000, (0.70, 0.73))]:
        rejected_m, rejected_b = [], []
        for start in range(0, repeats, CHUNK):
            size = min(CHUNK, repeats - start)
            first, second = _correlated_pair(n, (_phi(accs[0]), _phi(accs[1])), size, rng)
            b, c = (first & ~second).sum(axis=1), (second & ~first).sum(axis=1)
            rejected_m.append(mcnemar_pvalues(b, c) < 0.05)
            half = n // 2  # Avg-Acc: two labels of n/2 records, the paired bootstrap within each
            picks = np.concatenate(
                [
                    np.random.default_rng(start).integers(0, half, size=(SIM_RESAMPLES, half)) + h
                    for h in (0, half)
                ],
                axis=1,
            )
            d = first.astype(float) - second.astype(float)
            draws = np.stack([d[:, row].mean(axis=1) for row in picks])
            rejected_b.append(bootstrap_pvalue(d.mean(axis=1), draws) < 0.05)
        kind = "size (no difference)" if accs[0] == accs[1] else f"power at {accs[1] - accs[0]:+.0%}"
        for method, rejected in (("exact McNemar", rejected_m), ("paired bootstrap", rejected_b)):
            share = float(np.concatenate(rejected).mean())
            error = 1.96 * np.sqrt(share * (1 - share) / repeats)
            rows.append(
                f"| {method} | {n} | {accs[0]:.0%} vs {accs[1]:.0%} | {kind} | {share:.3f} ± {error:.3f} |"
            )
    return rows


def _phi(acc: float) -> float:
    """The accuracy on the N(0, 1) scale whose latent N(0, 2) version has accuracy `acc`."""
    return float(norm.cdf(norm.ppf(acc) * np.sqrt(2)))


def grid(quick: bool) -> list[Cell]:
    if quick:
        return [Cell(0.9, 0.9, 0.05, 50, 500), Cell(0.6, 0.75, 0.40, 200, 4900)]
    cells = [
        Cell(sens, spec, pi, qual, run)
        for sens, spec in ACCURACY
        for pi in PREVALENCE
        for qual in QUAL_SIZES
        for run in RUN_SIZES
    ]
    return cells + [Cell(sens, spec, pi, 1000, 1000) for sens, spec in ACCURACY for pi in PREVALENCE]


def _row(r: Result) -> str:
    missing = f"{r.missing}" if r.missing else ""
    mark = "" if r.ok else " ✗"
    coverage = f"{r.coverage:.3f} ± {r.error:.3f}{mark}"
    return f"| {r.cell} | {r.method} | {coverage} | {r.width.mean():.4f} | {missing} |"


def report(results: list[Result], tests: list[str], repeats: int, seconds: float) -> str:
    lines = [
        "# Coverage of the report's 95% intervals",
        "",
        "Command: `python bench/coverage.py` (its docstring says how each cell is drawn). "
        f"{repeats} repeats a cell, seed 2027; run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{seconds:.0f} s on {platform.processor() or platform.machine()} (2 cores shared with other jobs, "
        f"load average {os.getloadavg()[0]:.0f}). "
        "Coverage ± its Monte-Carlo error (1.96·√(c(1−c)/R)); ✗ marks a cell outside 93.5–96.5%. Width: mean "
        "interval width (fraction). No number: repeats where the grader's estimated J < 0.2 (the report "
        "prints none); coverage is over the others.",
        "",
    ]
    lines += _summary(results)
    for group in dict.fromkeys(r.group for r in results):
        lines += [
            f"## {group}",
            "",
            "| cell | method | coverage | width | no number |",
            "|---|---|---|---|---|",
        ]
        lines += [_row(r) for r in results if r.group == group]
        lines.append("")
    lines += [
        "## Paired tests: share of repeats that call the two models different (α = 0.05)",
        "",
        "| test | records | accuracies | what | share |",
        "|---|---|---|---|---|",
        *tests,
        "",
    ]
    return "\n".join(lines)


def _summary(results: list[Result]) -> list[str]:
    lines = [
        "## Summary",
        "",
        "| group | method | cells | in 93.5–96.5% | lowest | highest | mean width |",
        "|---|---|---|---|---|---|---|",
    ]
    methods = dict.fromkeys((r.group, r.method) for r in results)
    for group, method in methods:
        mine = [r for r in results if (r.group, r.method) == (group, method)]
        cov = [r.coverage for r in mine]
        lines.append(
            f"| {group} | {method} | {len(mine)} | {sum(r.ok for r in mine)} | {min(cov):.3f} | "
            f"{max(cov):.3f} | "
            f"{np.mean([r.width.mean() for r in mine]):.4f} |"
        )
    lines += ["", *_widths(results)]
    grm = [r for r in results if r.group == "GRM-equivalent"]
    if grm:
        lines += ["", *_ppi(grm)]
    return lines + [""]


def _by_cell(results: list[Result]) -> dict[tuple[str, str], dict[str, Result]]:
    by_cell: dict[tuple[str, str], dict[str, Result]] = {}
    for r in results:
        by_cell.setdefault((r.group, r.cell), {})[r.method] = r
    return by_cell


def _widths(results: list[Result]) -> list[str]:
    """Each method's width against the narrowest method in range in the same cell (PPI++ left out: it
    reads other data), for every group with more than one method."""
    ratio: dict[tuple[str, str], list[float]] = {}
    for (group, _), cells in _by_cell(results).items():
        methods = [m for m in cells if not m.startswith("PPI")]
        if len(methods) < 2:
            continue
        covering = [cells[m].width.mean() for m in methods if cells[m].ok]
        best = min(covering) if covering else np.nan
        for m in methods:
            ratio.setdefault((group, m), []).append(cells[m].width.mean() / best)
    lines = [
        "Width against the narrowest method in range in the same cell (1.00 = the narrowest; cells where "
        "none is in range are left out; PPI++ is left out, it reads the grader's scores):",
        "",
        "| group | method | median ratio | largest ratio |",
        "|---|---|---|---|",
    ]
    return lines + [
        f"| {group} | {m} | {_ratio(np.nanmedian, r)} | {_ratio(np.nanmax, r)} |"
        for (group, m), r in ratio.items()
    ]


def _ratio(summary, ratios: list[float]) -> str:
    return "–" if np.isnan(ratios).all() else f"{summary(ratios):.2f}"


def _ppi(grm: list[Result]) -> list[str]:
    """PPI++'s width (gold from the run's own records) against the default's, cell by cell."""
    ppi = [cells[PPI_SAME].width.mean() / cells[DEFAULT].width.mean() for cells in _by_cell(grm).values()]
    return [
        f"PPI++ with gold labels from the run's own records against the {DEFAULT} (the report's): median "
        f"width ratio {np.median(ppi):.2f} (range {min(ppi):.2f}–{max(ppi):.2f}), i.e. "
        f"{100 * (1 - np.median(ppi)):.0f}% narrower, where its assumption holds; with gold labels from the "
        "published mix (what a grader_check gives) it is biased and its coverage collapses (table below).",
    ]


SMALL_END = Cell(0.9, 0.9, 0.05, 50, 500)  # issue 35's corner: 50 qualification replies, π ≈ 0.05


SMALL_END_MIXES = (  # the qualification set's reference-good replies among its 50: (share, drawn?)
    (0.05, True),
    (0.25, True),
    (0.5, False),
    (0.5, True),
)
SMALL_END_RUNS = (500, 2000, 4900)


def _corner(estimator, good_share: float, drawn: bool, run: int, repeats: int, rng) -> np.ndarray:
    """Whether `estimator`'s interval covers π in each repeat of the corner with a qualification set of
    `good_share` reference-good replies (drawn: n_good ~ Bin(50, share); else exactly that share)."""
    cell, covered = SMALL_END, []
    for start in range(0, repeats, CHUNK):
        size = min(CHUNK, repeats - start)
        fixed = np.full(size, round(good_share * cell.qual))
        n_good = rng.binomial(cell.qual, good_share, size) if drawn else fixed
        n_bad = cell.qual - n_good
        p = rng.binomial(run, cell.pi * cell.sens + (1 - cell.pi) * (1 - cell.spec), size) / run
        with np.errstate(divide="ignore", invalid="ignore"):
            sens = rng.binomial(n_good, cell.sens) / n_good
            spec = rng.binomial(n_bad, cell.spec) / n_bad
        usable = (n_good > 0) & (n_bad > 0) & (sens + spec - 1 >= MIN_YOUDEN)
        rates = Rates(p[usable], run, sens[usable], n_good[usable], spec[usable], n_bad[usable])
        found = estimator(rates, seed=int(rng.integers(1 << 31)))
        covered.append(_covers(cell.pi, found.low, found.high))
    return np.concatenate(covered)


def small_end(repeats: int) -> str:
    """The corner at `repeats` repeats: each method's coverage, then the two Bayesian intervals'
    over qualification sets of other mixes and larger runs."""
    rng = np.random.default_rng(2035)
    results = grm_equivalent(SMALL_END, repeats, rng)
    lines = [f"Cell {SMALL_END.name}, {repeats} repeats, seed 2035.", "", "| method | coverage | width |"]
    lines += ["|---|---|---|"] + [
        f"| {r.method} | {r.coverage:.3f} ± {r.error:.3f} | {r.width.mean():.4f} |" for r in results
    ]
    lines += [
        "",
        f"The two Bayesian intervals by the qualification set's mix and the run's size ({repeats} repeats "
        "each, seed 2036; binomial draws):",
        "",
        "| reference-good replies of 50 | run N | uniform priors (the report's) | Jeffreys priors |",
        "|---|---|---|---|",
    ]
    rng = np.random.default_rng(2036)
    for share, drawn in SMALL_END_MIXES:
        mix = f"~ Bin(50, {share})" if drawn else f"exactly {round(share * SMALL_END.qual)}"
        for run in SMALL_END_RUNS:
            found = [_corner(f, share, drawn, run, repeats, rng) for f in (laplace, jeffreys)]
            shown = [
                f"{c.mean():.3f} ± {1.96 * np.sqrt(c.mean() * (1 - c.mean()) / c.size):.3f}" for c in found
            ]
            lines.append(f"| {mix} | {run} | {shown[0]} | {shown[1]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small-end", type=int, metavar="REPEATS", help="only issue 35's corner, printed")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("results_coverage.md"))
    parser.add_argument("--quick", action="store_true", help="two GRM-equivalent cells, 200 repeats (a test)")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args(argv)
    if args.small_end:
        print(small_end(args.small_end))
        return 0
    repeats = args.repeats or (200 if args.quick else 2000)
    rng = np.random.default_rng(2027)
    started = time.perf_counter()
    results = rates(repeats, rng) + avg_acc(repeats, rng) + delta_score(repeats, rng)
    for cell in grid(args.quick):
        results += grm_equivalent(cell, repeats, rng)
        print(cell.name, f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    tests = paired_tests(repeats, rng)
    args.out.write_text(report(results, tests, repeats, time.perf_counter() - started), encoding="utf-8")
    bad = [r for r in results if not r.ok and not r.method.startswith("PPI++ (gold from the published")]
    print(f"{len(results)} cells, {len(bad)} outside 93.5–96.5% → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
