"""The grader_check statistics on hand-made pairs (reference verdict and score beside the grader's)."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from uxbench.qualification.check_metrics import (
    STATISTICS,
    Pair,
    agreement_of,
    judge_accuracy,
    kappa_of,
    pair,
    per_model,
    sensitivity_of,
    spearman_of,
    specificity_of,
)


def p(
    reference: str, grader: str, ref_score: float | None = None, score: float | None = None, model="m"
) -> Pair:
    return Pair(reference, grader, ref_score, score, model)


PAIRS = [
    p("good", "good", 0.9, 0.8),
    p("good", "good", 0.7, 0.8),  # a tie in the grader's scores
    p("good", "bad", 0.6, 0.3),
    p("good", "failed", 0.55, None),  # a failed answer: not good, no score
    p("bad", "bad", 0.1, 0.2),
    p("bad", "good", 0.3, 0.6),
    p("bad", "bad", 0.3, 0.1),  # a tie in the reference scores
]


def test_rates_count_a_failed_answer_as_not_good() -> None:
    assert sensitivity_of(PAIRS) == 2 / 4
    assert specificity_of(PAIRS) == 2 / 3
    assert agreement_of(PAIRS) == 4 / 7
    assert STATISTICS["grader_fail_rate"](PAIRS) == 1 / 7
    assert STATISTICS["good_pct_gap"](PAIRS) == pytest.approx(3 / 7 - 4 / 7)
    assert (STATISTICS["n_reference_good"](PAIRS), STATISTICS["n_reference_bad"](PAIRS)) == (4.0, 3.0)


def test_kappa_by_hand() -> None:
    # grader: good 3, bad 3, failed 1; reference: good 4, bad 3; p_o = 4/7
    expected = (3 * 4 + 3 * 3) / 49
    assert kappa_of(PAIRS) == pytest.approx((4 / 7 - expected) / (1 - expected))


def test_spearman_uses_mid_ranks_for_ties() -> None:
    both = [x for x in PAIRS if x.grader_score is not None]
    grader_ranks = [5.5, 5.5, 3, 2, 4, 1]  # 0.8 0.8 0.3 0.2 0.6 0.1
    reference_ranks = [6, 5, 4, 1, 2.5, 2.5]  # 0.9 0.7 0.6 0.1 0.3 0.3
    mean = 3.5
    cov = sum((a - mean) * (b - mean) for a, b in zip(grader_ranks, reference_ranks, strict=True))
    spread = math.sqrt(
        sum((a - mean) ** 2 for a in grader_ranks) * sum((b - mean) ** 2 for b in reference_ranks)
    )
    assert len(both) == 6 and spearman_of(PAIRS) == pytest.approx(cov / spread)


@pytest.mark.integration
def test_undefined_statistics_are_nan() -> None:
    no_scores = [p("good", "good"), p("bad", "bad")]
    assert math.isnan(spearman_of(no_scores)) and math.isnan(STATISTICS["score_auroc"](no_scores))
    only_good = [p("good", "good", 0.7, 0.8), p("good", "bad", 0.6, 0.4)]
    assert math.isnan(specificity_of(only_good)) and math.isnan(STATISTICS["score_auroc"](only_good))
    assert math.isnan(spearman_of([p("good", "good", 0.7, 0.8), p("good", "good", 0.6, 0.8)]))  # constant


def sample_score(x: Pair) -> SampleScore:
    graded = {"verdict": x.grader, "score": x.grader_score}
    reference = {
        "reference_verdict": x.reference,
        "reference_score": x.reference_score,
        "judged_model": x.model,
    }
    return SampleScore(score=Score(value=int(x.grader == "good"), metadata=graded), sample_metadata=reference)


@pytest.mark.integration
def test_pairs_are_read_from_the_grm_score_and_the_sample() -> None:
    assert [pair(sample_score(x)) for x in PAIRS] == PAIRS
    nan_score = SampleScore(score=Score(value=0, metadata={"verdict": "bad", "score": float("nan")}))
    assert pair(nan_score).grader_score is None and pair(nan_score).model is None


@pytest.mark.integration
def test_per_model_groups_and_judge_accuracy() -> None:
    scores = [sample_score(x) for x in PAIRS] + [sample_score(p("good", "good", 0.8, 0.9, model="other"))]
    values = per_model()(scores)
    assert values["sensitivity:m"] == 0.5 and values["sensitivity:other"] == 1.0
    assert values["n_reference_good:other"] == 1.0 and values["specificity:other"] is None
    assert len(values) == 2 * len(STATISTICS)
    assert judge_accuracy()(scores[:7]) == {"avg_acc": (0.5 + 2 / 3) / 2, "good_acc": 0.5, "bad_acc": 2 / 3}
