"""Metrics shared by the UXBench tasks, as fractions in [0, 1].

Task 1 scores are 1 (the judge agreed with the user) or 0; the gold label lives in
`Score.metadata["label"]` ("good" = liked, "bad" = disliked).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from inspect_ai.scorer import Metric, SampleScore, Value, metric

NAN = float("nan")


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else NAN


def _class_accuracy(scores: list[SampleScore], label: str) -> tuple[float, int]:
    values = [s.score.as_float() for s in scores if (s.score.metadata or {}).get("label") == label]
    return _mean(values), len(values)


@metric
def good_acc() -> Metric:
    """Good-Acc = correct verdicts on liked records / liked records."""

    def compute(scores: list[SampleScore]) -> float:
        return _class_accuracy(scores, "good")[0]

    return compute


@metric
def bad_acc() -> Metric:
    """Bad-Acc = correct verdicts on disliked records / disliked records."""

    def compute(scores: list[SampleScore]) -> float:
        return _class_accuracy(scores, "bad")[0]

    return compute


@metric
def avg_acc() -> Metric:
    """Avg-Acc = (Good-Acc + Bad-Acc) / 2, the Task 1 headline (balanced accuracy)."""

    def compute(scores: list[SampleScore]) -> float:
        return (_class_accuracy(scores, "good")[0] + _class_accuracy(scores, "bad")[0]) / 2

    return compute


@metric
def avg_acc_stderr() -> Metric:
    """Standard error of Avg-Acc: sqrt(g(1-g)/n_g + b(1-b)/n_b) / 2 (two independent
    binomial proportions); the 95% interval is Avg-Acc ± 1.96 × this."""

    def compute(scores: list[SampleScore]) -> float:
        (g, n_g), (b, n_b) = _class_accuracy(scores, "good"), _class_accuracy(scores, "bad")
        if not n_g or not n_b:
            return NAN
        return math.sqrt(g * (1 - g) / n_g + b * (1 - b) / n_b) / 2

    return compute


@metric
def parse_fail_rate() -> Metric:
    """Share of answers no label could be read from (they count as wrong)."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean([float(s.score.answer is None) for s in scores])

    return compute


@metric
def neutral_rate() -> Metric:
    """Share of answers that chose the neutral option (three-class prompts; wrong either way)."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean([float(s.score.answer == "neutral") for s in scores])

    return compute


@metric
def breakdown(keys: list[str]) -> Metric:
    """Mean score per value of each sample-metadata key, named `key:value`.

    For Task 1 this is the accuracy of each group: per failure dimension it is that
    dimension's Bad-Acc, per success pattern its Good-Acc. Records without the key are
    left out of that key's groups.
    """

    def compute(scores: list[SampleScore]) -> Value:
        groups: dict[str, list[float]] = defaultdict(list)
        for s in scores:
            metadata = s.sample_metadata or {}
            for key in keys:
                if metadata.get(key) not in (None, ""):
                    groups[f"{key}:{metadata[key]}"].append(s.score.as_float())
        return {name: _mean(values) for name, values in sorted(groups.items())}

    return compute
