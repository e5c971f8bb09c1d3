"""The GRM-equivalent correction p* = (p + spec − 1)/(sens + spec − 1), its intervals (the Jeffreys
posterior by default)."""

from __future__ import annotations

import math
import random

import pytest

from uxbench.qualification.correction import (
    DEFAULT_METHOD,
    METHOD_NAMES,
    MIN_YOUDEN,
    Corrected,
    Proportion,
    Qualification,
    corrected_rate,
)


def qualification(sens: float, n_good: int, spec: float, n_bad: int) -> Qualification:
    return Qualification(Proportion(sens, n_good), Proportion(spec, n_bad))


def test_worked_example_of_the_docs() -> None:
    """docs/graders.md: sens 1,700/2,000, spec 2,400/3,000, a raw Good% of 50.0% over 4,900 records."""
    q = qualification(1700 / 2000, 2000, 2400 / 3000, 3000)
    se = math.sqrt(0.5 * 0.5 / 4900)
    corrected = corrected_rate(0.5, se, q, method="delta")
    assert q.youden == pytest.approx(0.65)
    assert corrected.estimate == pytest.approx(0.30 / 0.65)
    by_hand = math.sqrt((se**2 + (0.30 / 0.65) ** 2 * 6.375e-5 + (0.35 / 0.65) ** 2 * 0.16 / 3000) / 0.65**2)
    assert corrected.high - corrected.estimate == pytest.approx(1.959964 * by_hand, rel=1e-6)
    assert (round(corrected.estimate, 3), round(corrected.low, 3), round(corrected.high, 3)) == (
        0.462,
        0.435,
        0.489,
    )


def test_a_perfect_grader_changes_nothing() -> None:
    corrected = corrected_rate(0.3, 0.01, qualification(1.0, 500, 1.0, 500), method="delta")
    assert corrected.estimate == pytest.approx(0.3)
    assert (corrected.low, corrected.high) == pytest.approx((0.3 - 0.0196, 0.3 + 0.0196), abs=1e-4)
    # the prior's one of each outcome sees the chance of an error 500 replies did not show
    posterior = corrected_rate(0.3, 0.01, qualification(1.0, 500, 1.0, 500))
    assert (
        posterior.estimate == pytest.approx(0.3)
        and posterior.low < corrected.low
        and posterior.high > corrected.high
    )


def test_every_method_agrees_on_a_large_qualification() -> None:
    """At the docs' worked example the four methods give the same interval to the third decimal."""
    q = qualification(1700 / 2000, 2000, 2400 / 3000, 3000)
    se = math.sqrt(0.5 * 0.5 / 4900)
    found = {m: corrected_rate(0.5, se, q, method=m, records=4900) for m in METHOD_NAMES}
    for corrected in found.values():  # to the third decimal: seeded draws differ a little across numpy builds
        assert (corrected.low, corrected.high) == pytest.approx((0.435, 0.489), abs=1e-3)
    assert DEFAULT_METHOD == "laplace"


def test_the_default_is_lopsided_where_dividing_by_a_noisy_j_stretches() -> None:
    """12 reference-good and 38 reference-bad replies: the interval reaches further up than down."""
    corrected = corrected_rate(0.15, math.sqrt(0.15 * 0.85 / 500), qualification(11 / 12, 12, 34 / 38, 38))
    assert corrected.low < corrected.estimate < corrected.high
    assert corrected.high - corrected.estimate > corrected.estimate - corrected.low


def test_an_unknown_method_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="GRM-equivalent method 'wald'"):
        corrected_rate(0.5, 0.01, qualification(0.9, 100, 0.9, 100), method="wald")


def test_estimate_and_interval_are_clipped_to_the_unit_interval() -> None:
    q = qualification(0.8, 200, 0.7, 200)  # 1 − spec = 0.3: a raw 0.25 is below what no good reply gives
    low = corrected_rate(0.25, 0.02, q)
    assert low.estimate == 0.0 and low.low == 0.0 and 0 < low.high < 0.2
    high = corrected_rate(0.95, 0.01, q)
    assert high.estimate == 1.0 and high.high == 1.0


def test_too_weak_a_grader_gets_no_number() -> None:
    weak = corrected_rate(0.5, 0.01, qualification(0.6, 500, 0.59, 500))  # J = 0.19
    assert weak == Corrected(raw=0.5, youden=pytest.approx(0.19), estimate=None, low=None, high=None)
    assert weak.too_weak
    assert not corrected_rate(0.5, 0.01, qualification(0.6, 500, 0.6, 500)).too_weak  # J = 0.2 exactly
    assert corrected_rate(0.5, 0.01, qualification(math.nan, 0, 0.9, 500)).too_weak  # no reference-good reply
    assert MIN_YOUDEN == 0.2


def test_uncertainty_of_sens_and_spec_widens_the_interval() -> None:
    few = corrected_rate(0.4, 0.01, qualification(0.85, 50, 0.8, 50))
    many = corrected_rate(0.4, 0.01, qualification(0.85, 5000, 0.8, 5000))
    assert few.estimate == many.estimate and (few.high - few.low) > 2 * (many.high - many.low)


def simulate(seed: int, share: float, sens: float, spec: float, n_good: int, n_bad: int, n: int) -> tuple:
    """One qualification and one run of a grader with the given error rates; (interval, true share)."""
    rng = random.Random(seed)
    q = qualification(
        sum(rng.random() < sens for _ in range(n_good)) / n_good,
        n_good,
        sum(rng.random() < spec for _ in range(n_bad)) / n_bad,
        n_bad,
    )
    truth = [rng.random() < share for _ in range(n)]
    said = [rng.random() < sens if good else rng.random() >= spec for good in truth]
    p = sum(said) / n
    corrected = corrected_rate(p, math.sqrt(p * (1 - p) / n), q)
    return corrected, sum(truth) / n


@pytest.mark.slow
@pytest.mark.parametrize(
    "share, sens, spec",
    [(0.35, 0.8, 0.7), (0.12, 0.9, 0.6), (0.6, 0.7, 0.75)],
)
def test_the_95_percent_interval_covers_at_least_90_percent(share: float, sens: float, spec: float) -> None:
    """Coverage over 200 seeds, of the grader-independent share and of the run's own reference share."""
    runs = [simulate(seed, share, sens, spec, 400, 600, 500) for seed in range(200)]
    of_share = sum(c.low <= share <= c.high for c, _ in runs) / len(runs)
    of_sample = sum(c.low <= truth <= c.high for c, truth in runs) / len(runs)
    assert of_share >= 0.90 and of_sample >= 0.90, (of_share, of_sample)
