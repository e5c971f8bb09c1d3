"""GRM metrics on hand-made scores: each formula of docs/protocol.md#grm-scoring checked by hand."""

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from uxbench.scorers.metrics import (
    bad_score_mean,
    delta_score,
    fail_rate,
    good_pct,
    good_pct_stderr,
    good_pct_valid,
    good_score_mean,
    no_logprob_rate,
    recovery_rate,
    score_mean,
    score_median,
)


def sample(verdict: str, score: float | None, logprobs: bool | None = True, baseline: float | None = None):
    metadata = {"verdict": verdict, "score": score, "logprobs": logprobs, "baseline_score": baseline}
    return SampleScore(score=Score(value=int(verdict == "good"), answer=verdict, metadata=metadata))


# 3 good, 2 bad, 1 failed (too long at every rung: no answer), 1 good without logprobs
SCORES = [
    sample("good", 0.9, baseline=0.2),
    sample("good", 0.7, baseline=0.4),
    sample("good", 0.6),
    sample("bad", 0.3, baseline=0.5),
    sample("bad", 0.1, baseline=None),
    sample("failed", None, logprobs=None),
    sample("good", None, logprobs=False),
]


def test_good_share_over_all_records() -> None:
    assert good_pct()(SCORES) == pytest.approx(4 / 7)
    assert recovery_rate()(SCORES) == pytest.approx(4 / 7)
    assert good_pct_valid()(SCORES) == pytest.approx(4 / 6)
    assert fail_rate()(SCORES) == 0.0  # only real answers with neither label count
    assert good_pct_stderr()(SCORES) == pytest.approx(math.sqrt((4 / 7) * (3 / 7) / 7))


def test_score_statistics_use_records_with_a_score() -> None:
    assert score_mean()(SCORES) == pytest.approx((0.9 + 0.7 + 0.6 + 0.3 + 0.1) / 5)
    assert score_median()(SCORES) == pytest.approx(0.6)
    assert score_median()(SCORES[:4]) == pytest.approx((0.6 + 0.7) / 2)
    assert good_score_mean()(SCORES) == pytest.approx((0.9 + 0.7 + 0.6) / 3)
    assert bad_score_mean()(SCORES) == pytest.approx(0.2)


def test_no_logprob_rate_counts_answers_only() -> None:
    assert no_logprob_rate()(SCORES) == pytest.approx(1 / 6)


def test_delta_score_pairs_only() -> None:
    assert delta_score()(SCORES) == pytest.approx(((0.9 - 0.2) + (0.7 - 0.4) + (0.3 - 0.5)) / 3)


def test_empty_inputs_have_no_value() -> None:
    for metric in (good_pct(), score_mean(), score_median(), good_pct_stderr(), delta_score()):
        assert metric([]) == {metric.__name__: None}  # left out of the log
