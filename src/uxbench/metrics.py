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


# -------------------------------------------------- GRM-scored tasks (docs/protocol.md#grm-scoring)
#
# A GRM Score has value 1 for a good verdict and 0 otherwise (bad or failed), so `breakdown`
# gives Good% per group; `metadata` carries "verdict" (good / bad / failed), "score" (the
# §5 probability, or None), "logprobs" (whether the grader's answer carried any; None when
# no answer came back) and, when a reference reply was graded too, "baseline_score". With
# --epochs, Inspect keeps the first epoch's metadata: only the Good% family averages epochs.


def _grm(scores: list[SampleScore], key: str) -> list[object]:
    return [(s.score.metadata or {}).get(key) for s in scores]


def _good_share(scores: list[SampleScore]) -> float:
    # from the value (1 = good), so that with --epochs it is the mean over epochs, like `breakdown`
    return _mean([s.score.as_float() for s in scores])


def _grm_scores(scores: list[SampleScore], verdict: str | None = None) -> list[float]:
    return [
        float(meta["score"])
        for meta in (s.score.metadata or {} for s in scores)
        if meta.get("score") is not None and verdict in (None, meta.get("verdict"))
    ]


@metric
def good_pct() -> Metric:
    """Good% = good verdicts / all records (a failed judgment counts as not good): Task 2's headline."""

    def compute(scores: list[SampleScore]) -> float:
        return _good_share(scores)

    return compute


@metric
def recovery_rate() -> Metric:
    """Recovery Rate = good verdicts on the repairs / all records: Task 3's headline (Good% of repairs)."""

    def compute(scores: list[SampleScore]) -> float:
        return _good_share(scores)

    return compute


@metric
def good_pct_valid() -> Metric:
    """Good verdicts / (good + bad verdicts): the rate over valid judgments only."""

    def compute(scores: list[SampleScore]) -> float:
        valid = [v for v in _grm(scores, "verdict") if v in ("good", "bad")]
        return _mean([float(v == "good") for v in valid])

    return compute


@metric
def good_pct_stderr() -> Metric:
    """Standard error of Good% (binomial): sqrt(p(1-p)/n), n = all records; 95% interval p ± 1.96 × this."""

    def compute(scores: list[SampleScore]) -> float:
        p = _good_share(scores)
        return math.sqrt(p * (1 - p) / len(scores)) if scores else NAN

    return compute


@metric
def fail_rate() -> Metric:
    """Failed judgments / all records: the grader's answer began with neither label, or it errored."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean([float(v == "failed") for v in _grm(scores, "verdict")])

    return compute


@metric
def no_logprob_rate() -> Metric:
    """Grader answers without logprobs / grader answers: those records have a verdict but no score."""

    def compute(scores: list[SampleScore]) -> float:
        answered = [v for v in _grm(scores, "logprobs") if v is not None]
        return _mean([float(v is False) for v in answered])

    return compute


@metric
def score_mean() -> Metric:
    """Mean §5 score P(好)/(P(好)+P(差)) over records that have one."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(_grm_scores(scores))

    return compute


@metric
def score_median() -> Metric:
    """Median §5 score over records that have one (the middle two averaged)."""

    def compute(scores: list[SampleScore]) -> float:
        values = sorted(_grm_scores(scores))
        if not values:
            return NAN
        middle = len(values) // 2
        return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

    return compute


@metric
def good_score_mean() -> Metric:
    """Mean §5 score of the records judged good."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(_grm_scores(scores, "good"))

    return compute


@metric
def bad_score_mean() -> Metric:
    """Mean §5 score of the records judged bad."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(_grm_scores(scores, "bad"))

    return compute


@metric
def delta_score() -> Metric:
    """mean(score of the repair − score of the failed reply) over records where both have a score:
    above 0, the repairs read better to the grader than what the user complained about."""

    def compute(scores: list[SampleScore]) -> float:
        deltas = [
            float(meta["score"]) - float(meta["baseline_score"])
            for meta in (s.score.metadata or {} for s in scores)
            if meta.get("score") is not None and meta.get("baseline_score") is not None
        ]
        return _mean(deltas)

    return compute
