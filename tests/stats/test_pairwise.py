"""Which differences are real: pairwise tests, Holm, letters, separability, rank intervals."""

from __future__ import annotations

import numpy as np
import pytest

from uxbench.stats.intervals import mcnemar_exact
from uxbench.stats.pairwise import (
    INDEPENDENT_BOOTSTRAP,
    MCNEMAR,
    PAIRED_BOOTSTRAP,
    holm,
    letters,
    mcnemar_pvalues,
    separate,
)

RNG = np.random.default_rng(5)
BASE = RNG.random(1000)
STRONG = (BASE < 0.85).astype(float)  # right on 85% of the records
WEAK = (RNG.random(1000) < 0.45).astype(float)  # 45%, unrelated
LABELS = np.array(["good"] * 500 + ["bad"] * 500)


def test_holm_matches_the_step_down_rule() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5] and holm([]) == []


def test_vectorised_mcnemar_equals_the_scalar_test() -> None:
    for b, c in [(0, 0), (3, 9), (40, 21), (7, 7)]:
        assert float(mcnemar_pvalues(b, c)) == pytest.approx(mcnemar_exact(b, c))


def test_letters_of_a_chain() -> None:
    """a > c and d, b > d: a | ab | bc | c — neighbours share a letter, the ends do not."""
    assert letters(4, {(0, 2), (0, 3), (1, 3)}) == ["a", "ab", "bc", "c"]
    assert letters(3, set()) == ["a", "a", "a"]
    assert letters(2, {(0, 1)}) == ["a", "b"]


@pytest.mark.parametrize("strata, test", [(None, MCNEMAR), (LABELS, PAIRED_BOOTSTRAP)])
def test_identical_models_are_not_separable_and_far_apart_ones_are(strata, test) -> None:
    runs = [STRONG, STRONG.copy(), WEAK]
    found = separate(runs, None if strata is None else [strata] * 3, binary=True)
    assert found.test == test
    assert found.p_values[(0, 1)] == 1.0 and found.p_values[(0, 2)] < 0.01  # a bootstrap p is ≥ 2/2,001
    assert found.letters == ["a", "a", "b"]
    assert found.separability == pytest.approx(2 / 3)
    assert (found.rank_low, found.rank_high) == ([1, 1, 3], [1, 1, 3])


def test_close_models_get_a_rank_interval_that_overlaps() -> None:
    right, wrong = np.flatnonzero(STRONG == 1)[:15], np.flatnonzero(STRONG == 0)[:15]
    near = STRONG.copy()
    near[right], near[wrong] = 0, 1  # 30 records flipped, the same accuracy
    found = separate([STRONG, near], binary=False)
    assert found.separability == 0.0 and found.letters == ["a", "a"]
    assert found.rank_low == [1, 1] and found.rank_high == [2, 2]


def test_runs_on_different_records_fall_back_to_independent_bootstraps() -> None:
    found = separate([STRONG[:600], WEAK[300:]], paired=False)
    assert found.test == INDEPENDENT_BOOTSTRAP and not found.paired
    assert found.separability == 1.0
    same = separate([STRONG[:500], STRONG[500:]], paired=False)
    assert same.separability == 0.0


def test_one_model_has_no_pairs() -> None:
    found = separate([STRONG])
    assert found.p_values == {} and np.isnan(found.separability) and found.letters == ["a"]
