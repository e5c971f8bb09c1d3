"""Grader ensembles: the panel rule and the agreement metrics, against hand-computed values."""

import pytest
from inspect_ai.scorer import SampleScore, Score

from uxbench.grader_answer.panel import grader_agreement, panel_verdict
from uxbench.runtime.roles import grader_roles


def test_grader_roles_in_order() -> None:
    roles = ["grader_10", "grader_2", "judge", "grader", "grader_x", "grader_1", "grader_3"]
    assert grader_roles(roles) == ["grader", "grader_2", "grader_3", "grader_10"]


@pytest.mark.parametrize(
    ("votes", "expected"),
    [
        ([("good", 0.9), ("good", 0.6), ("bad", 0.1)], ("good", pytest.approx(1.6 / 3))),
        ([("bad", 0.4), ("bad", 0.3), ("good", 0.95)], ("bad", pytest.approx(0.55))),
        # a tie goes to the mean score: (0.7 + 0.2) / 2 = 0.45 < 0.5 → bad
        ([("good", 0.7), ("bad", 0.2)], ("bad", pytest.approx(0.45))),
        ([("good", 0.8), ("bad", 0.2)], ("good", pytest.approx(0.5))),
        # a failed grader abstains
        ([("good", None), ("failed", None)], ("good", None)),
        ([("good", None), ("bad", None)], ("failed", None)),
        ([("failed", None), ("failed", None)], ("failed", None)),
    ],
)
def test_panel_verdict(votes, expected) -> None:
    assert panel_verdict(votes) == expected


def panel(*graders: tuple[str, float | None]) -> SampleScore:
    roles = ["grader", "grader_2", "grader_3"]
    members = [{"role": roles[i], "verdict": v, "score": s} for i, (v, s) in enumerate(graders)]
    return SampleScore(score=Score(value=0, metadata={"graders": members}))


def test_two_grader_agreement() -> None:
    scores = [
        panel(("good", 0.8), ("good", 0.6)),
        panel(("good", 0.6), ("bad", None)),
        panel(("bad", 0.2), ("bad", 0.4)),
        panel(("good", 0.9), ("good", 0.5)),
    ]
    values = grader_agreement()(scores)
    assert values["grader_good_pct:grader"] == 0.75 and values["grader_good_pct:grader_2"] == 0.5
    # κ: p_o = 3/4, p_e = (3·2 + 1·2) / 16 = 1/2 → 1/2
    assert values["grader_kappa"] == pytest.approx(0.5)
    # α: 8 ratings (5 good, 3 bad); D_e = (64 − 25 − 9) / (8·7) = 30/56; D_o = 2 / 8 → 1 − 14/30
    assert values["grader_alpha"] == pytest.approx(16 / 30)
    assert values["grader_unanimous"] == 0.75


def test_three_graders_and_single_grader_runs() -> None:
    values = grader_agreement()([panel(("good", 1.0), ("good", 1.0), ("failed", None))])
    assert "grader_kappa" not in values and values["grader_good_pct:grader_3"] == 0.0
    one_grader = [SampleScore(score=Score(value=1, metadata={"verdict": "good"}))]
    assert grader_agreement()(one_grader) == {"grader_agreement": None}  # nothing in the log
