"""Task 1 metric formulas against hand-computed values (docs/protocol.md#task-1-ux-judge)."""

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from uxbench.scorers.metrics import (
    avg_acc,
    avg_acc_stderr,
    bad_acc,
    breakdown,
    good_acc,
    neutral_rate,
    parse_fail_rate,
)


def scores(rows: list[tuple[str, str | None, str]]) -> list[SampleScore]:
    """rows of (gold label, parsed answer, difficulty)."""
    return [
        SampleScore(
            score=Score(value=int(answer == gold), answer=answer, metadata={"label": gold}),
            sample_id=i,
            sample_metadata={"label": gold, "difficulty": difficulty},
        )
        for i, (gold, answer, difficulty) in enumerate(rows)
    ]


# 4 liked (3 judged right), 2 disliked (1 right, 1 unparseable)
ROWS = [
    ("good", "good", "easy"),
    ("good", "good", "easy"),
    ("good", "good", "hard"),
    ("good", "bad", "hard"),
    ("bad", "bad", "hard"),
    ("bad", None, "hard"),
]


def test_class_accuracies_and_average() -> None:
    s = scores(ROWS)
    assert good_acc()(s) == pytest.approx(0.75)
    assert bad_acc()(s) == pytest.approx(0.5)
    assert avg_acc()(s) == pytest.approx(0.625)
    plain_accuracy = 4 / 6
    assert avg_acc()(s) != pytest.approx(plain_accuracy)  # balanced, not plain accuracy


def test_stderr() -> None:
    expected = math.sqrt(0.75 * 0.25 / 4 + 0.5 * 0.5 / 2) / 2
    assert avg_acc_stderr()(scores(ROWS)) == pytest.approx(expected)
    assert avg_acc_stderr()(scores(ROWS[:4])) == {"avg_acc_stderr": None}  # no disliked records


def test_parse_fail_and_neutral() -> None:
    assert parse_fail_rate()(scores(ROWS)) == pytest.approx(1 / 6)
    with_neutral = scores([("bad", "neutral", "easy"), ("good", "good", "easy")])
    assert neutral_rate()(with_neutral) == pytest.approx(0.5)
    assert bad_acc()(with_neutral) == 0  # neutral is wrong for a disliked record


def test_breakdown() -> None:
    result = breakdown(["difficulty", "missing"])(scores(ROWS))
    assert result == {"difficulty:easy": 1.0, "difficulty:hard": pytest.approx(0.5)}


def test_empty_class_has_no_value() -> None:
    assert bad_acc()(scores(ROWS[:2])) == {"bad_acc": None}
