"""Quality tiers are computed from the five axes, and the gates of docs/protocol.md#construction-pipeline."""

from __future__ import annotations

from typing import Any

import pytest

from uxbench.pipeline.stages.quality import (
    AXES,
    case_gate_failure,
    gate_failure,
    mean_score,
    score_gate_failure,
    tier,
)


def scores(*values: int) -> dict[str, int]:
    return dict(zip(AXES, values, strict=True))


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ((4, 4, 4, 4, 4), "high"),
        ((5, 5, 5, 5, 3), "high"),  # mean 4.6, lowest 3
        ((5, 5, 5, 5, 2), "medium"),  # mean 4.4 but an axis below 3
        ((4, 4, 4, 4, 3), "medium"),  # mean 3.8
        ((3, 3, 3, 3, 3), "medium"),
        ((5, 5, 5, 1, 5), "low"),  # an axis below 2
        ((3, 3, 3, 3, 2), "low"),  # mean 2.8
    ],
)
def test_tiers(values: tuple[int, ...], expected: str) -> None:
    assert tier(scores(*values)) == expected


def test_mean() -> None:
    assert mean_score(scores(5, 4, 3, 2, 1)) == 3.0


def judged(**changes: Any) -> dict[str, Any]:
    case = {
        "query_turn": 0,
        "signal_confidence": "high",
        "representativeness": "medium",
        "explanation": "The reply answered a different city than the one the user asked about.",
        "needs_image": False,
    }
    row = {
        "turns": [
            {"role": "user", "text": "北京明天的天气怎么样，需要带伞吗？"},
            {"role": "assistant", "text": "上海晴"},
        ],
        "case": case,
        "scores": scores(5, 5, 4, 4, 4),
    }
    for key, value in changes.items():
        (row if key == "scores" else case)[key] = value
    return row


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({}, None),
        ({"signal_confidence": "low"}, "signal_confidence_low"),
        ({"representativeness": "low"}, "representativeness_low"),
        ({"needs_image": True}, "needs_image"),
        ({"explanation": "too short"}, "explanation_too_short"),
        ({"scores": None}, "judge_invalid"),
        ({"scores": scores(4, 4, 4, 4, 3)}, "tier_not_high"),
        ({"scores": scores(2, 5, 5, 5, 5)}, "tier_not_high"),
    ],
)
def test_gates(changes: dict[str, Any], reason: str | None) -> None:
    assert gate_failure(judged(**changes)) == reason


def test_short_query_and_split_gates() -> None:
    row = judged()
    row["turns"][0]["text"] = "天气？"
    assert case_gate_failure(row) == "query_too_short"
    assert score_gate_failure(row) is None
