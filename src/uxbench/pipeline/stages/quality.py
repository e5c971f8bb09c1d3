"""Quality tiers and the gates a case must pass to enter a test set (docs/protocol.md#construction-pipeline).

The tier is computed here from the judge's five axis scores; a tier, total or mean the
model states itself is never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from uxbench.pipeline.stages.signals import normalise

AXES = ("query_completeness", "signal_credibility", "representativeness", "severity", "annotation_clarity")
TIERS = ("high", "medium", "low")


def mean_score(scores: dict[str, int]) -> float:
    return sum(scores[a] for a in AXES) / len(AXES)


def tier(scores: dict[str, int]) -> str:
    """high: mean ≥ 4.0 and no axis < 3; medium: mean ≥ 3.0 and no axis < 2; else low."""
    mean, lowest = mean_score(scores), min(scores[a] for a in AXES)
    if mean >= 4.0 and lowest >= 3:
        return "high"
    if mean >= 3.0 and lowest >= 2:
        return "medium"
    return "low"


@dataclass(frozen=True)
class Gates:
    """Test-set entry conditions; defaults: docs/protocol.md#construction-pipeline."""

    min_mean: float = 4.0
    min_axis: int = 3
    min_query_completeness: int = 3
    min_query_chars: int = 15
    min_explanation_chars: int = 40
    signal_confidence: tuple[str, ...] = ("high", "medium")


def query_text(row: dict[str, Any]) -> str:
    return str(row["turns"][row["case"]["query_turn"]]["text"])


def case_gate_failure(row: dict[str, Any], gates: Gates = Gates()) -> str | None:
    """The first gate a mined case fails on its own fields (checked before judging it), or None."""
    case = row["case"]
    checks = (
        ("signal_confidence_low", case["signal_confidence"] in gates.signal_confidence),
        ("representativeness_low", case["representativeness"] != "low"),
        ("needs_image", not case.get("needs_image", False)),
        ("query_too_short", len(normalise(query_text(row))) >= gates.min_query_chars),
        ("explanation_too_short", len(case["explanation"].strip()) >= gates.min_explanation_chars),
    )
    return next((name for name, ok in checks if not ok), None)


def score_gate_failure(row: dict[str, Any], gates: Gates = Gates()) -> str | None:
    """The first gate a judged case fails on its scores, or None."""
    scores = row.get("scores")
    if not scores:
        return "judge_invalid"
    checks = (
        ("tier_not_high", tier(scores) == "high"),
        ("mean_below_min", mean_score(scores) >= gates.min_mean),
        ("axis_below_min", min(scores[a] for a in AXES) >= gates.min_axis),
        ("query_incomplete", scores["query_completeness"] >= gates.min_query_completeness),
    )
    return next((name for name, ok in checks if not ok), None)


def gate_failure(row: dict[str, Any], gates: Gates = Gates()) -> str | None:
    """The first quality gate a judged case fails, or None (docs/protocol.md#construction-pipeline)."""
    return case_gate_failure(row, gates) or score_gate_failure(row, gates)
