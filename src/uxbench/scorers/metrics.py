"""Metrics shared by the UXBench tasks, as fractions in [0, 1].

The contract between the scorers and every UXBench metric (this module, `uxbench.judge_answer.calibration`,
`uxbench.grader_answer.panel`):

- Each metric is `@metric(scores="unreduced")` (`uxbench.runtime.metric`: Inspect's, with no
  NaN in the log and a description): it receives one `SampleScore` per sample and
  epoch — that epoch's own Score — never the epoch-reduced one. (Inspect's reducers average
  `value`, set `answer` to None when the epochs disagree and keep only the first epoch's
  `metadata`, so a metric that read those after reduction would be wrong at `--epochs 2`.)
- A Score carries `value` 1 (Task 1: the verdict matched the user; Tasks 2/3: the grader said
  good) or 0, and in `metadata` the facts of that epoch: Task 1 `label` (the user's: good =
  liked, bad = disliked), `p_good`; Tasks 2/3 `verdict` (good / bad / failed), `score`,
  `logprobs`, `baseline_score`. Task 1's `answer` is the label the judge gave (None when
  unparseable); the metrics read it per epoch too.
- So every rate pools the epochs: with each sample run every epoch it equals the mean over
  each sample's epochs (Inspect's default `mean` reduction). The probability metrics (AUROC,
  Brier, ECE) and the agreement metrics (MCC, κ, Krippendorff's α) count each epoch as one
  observation. Standard errors are clustered by sample id, since a record's epochs are not
  independent: with n_i epochs and s_i of them good for record i, p = Σ s_i / Σ n_i and
  SE = √(Σ (s_i − p·n_i)²) / Σ n_i, which is √(p(1 − p)/n) at one epoch.
- `--epochs-reducer` therefore does not change UXBench's metrics.

Gold items (`uxbench/human`'s attention checks, score metadata `gold`) are counted only by
`gold_acc`: every other metric reads `counted(scores)`, the records of the benchmark.

Numbers that are not finite (NaN, ±inf in an older log's metadata) are skipped by the
means and counted (`p_good_skipped`, `score_skipped`), never averaged into NaN. A metric with
no value on a run (a mean of nothing) is left out of the log.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

from inspect_ai.scorer import Metric, SampleScore, Value

from uxbench.data.assignment import counted, is_gold
from uxbench.runtime.metric import metric

NAN = float("nan")


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else NAN


def _class_scores(scores: list[SampleScore], label: str) -> list[SampleScore]:
    return [s for s in counted(scores) if (s.score.metadata or {}).get("label") == label]


def _share(scores: list[SampleScore]) -> float:
    return _mean([s.score.as_float() for s in scores])


def clustered_stderr(scores: list[SampleScore]) -> float:
    """Standard error of the share of value 1, clustered by sample id (see the module docstring)."""
    if not scores:
        return NAN
    clusters: dict[object, list[float]] = defaultdict(list)
    for index, s in enumerate(scores):
        clusters[s.sample_id if s.sample_id is not None else ("unnamed", index)].append(s.score.as_float())
    p = _share(scores)
    return math.sqrt(sum((sum(v) - p * len(v)) ** 2 for v in clusters.values())) / len(scores)


def _avg_acc_stderr(scores: list[SampleScore]) -> float:
    good, bad = _class_scores(scores, "good"), _class_scores(scores, "bad")
    if not good or not bad:
        return NAN
    return math.sqrt(clustered_stderr(good) ** 2 + clustered_stderr(bad) ** 2) / 2


@metric(scores="unreduced")
def good_acc() -> Metric:
    """Good-Acc = correct verdicts on liked records / liked records."""

    def compute(scores: list[SampleScore]) -> float:
        return _share(_class_scores(scores, "good"))

    return compute


@metric(scores="unreduced")
def bad_acc() -> Metric:
    """Bad-Acc = correct verdicts on disliked records / disliked records."""

    def compute(scores: list[SampleScore]) -> float:
        return _share(_class_scores(scores, "bad"))

    return compute


@metric(scores="unreduced")
def avg_acc() -> Metric:
    """Avg-Acc = (Good-Acc + Bad-Acc) / 2, the Task 1 headline (balanced accuracy)."""

    def compute(scores: list[SampleScore]) -> float:
        return (_share(_class_scores(scores, "good")) + _share(_class_scores(scores, "bad"))) / 2

    return compute


@metric(scores="unreduced")
def avg_acc_stderr() -> Metric:
    """Standard error of Avg-Acc: √(SE_g² + SE_b²) / 2, SE_g and SE_b the clustered binomial
    errors of Good-Acc and Bad-Acc (√(g(1−g)/n_g) and √(b(1−b)/n_b) at one epoch); the 95%
    interval is Avg-Acc ± 1.96 × this."""

    def compute(scores: list[SampleScore]) -> float:
        return _avg_acc_stderr(scores)

    return compute


@metric("stderr", scores="unreduced")
def headline_stderr(headline: Literal["avg_acc", "good_pct"] = "good_pct") -> Metric:
    """The headline's standard error under the name `stderr`, where `inspect_ai.analysis.evals_df`
    reads `score_headline_stderr`: avg_acc_stderr (Task 1) or good_pct_stderr (Tasks 2/3)."""

    def compute(scores: list[SampleScore]) -> float:
        return _avg_acc_stderr(scores) if headline == "avg_acc" else clustered_stderr(scores)

    return compute


@metric(scores="unreduced")
def parse_fail_rate() -> Metric:
    """Share of answers no label could be read from (they count as wrong)."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean([float(s.score.answer is None) for s in counted(scores)])

    return compute


@metric(scores="unreduced")
def neutral_rate() -> Metric:
    """Share of answers that chose the neutral option (three-class prompts; wrong either way)."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean([float(s.score.answer == "neutral") for s in counted(scores)])

    return compute


@metric(scores="unreduced")
def gold_acc() -> Metric:
    """Gold-Acc = correct answers on gold items / gold items: how closely a person follows the
    known answers of the study's attention checks (Task 1 runs with `-M gold=FILE`)."""

    def compute(scores: list[SampleScore]) -> float:
        return _share([s for s in scores if is_gold(s)])

    return compute


@metric(scores="unreduced")
def breakdown(keys: list[str]) -> Metric:
    """Mean score per value of each sample-metadata key, named `key:value`.

    For Task 1 this is the accuracy of each group: per failure dimension it is that
    dimension's Bad-Acc, per success pattern its Good-Acc. Records without the key are
    left out of that key's groups.
    """

    def compute(scores: list[SampleScore]) -> Value:
        groups: dict[str, list[float]] = defaultdict(list)
        for s in counted(scores):
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
# §5 probability, or None), "logprobs" (whether the grader's answer carried usable ones;
# None when no answer came back) and, when a reference reply was graded too, "baseline_score".


def _grm(scores: list[SampleScore], key: str) -> list[object]:
    return [(s.score.metadata or {}).get(key) for s in scores]


def _number(value: object) -> float | None:
    """A stored score as a float, or None when it is missing or not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _grm_scores(scores: list[SampleScore], verdict: str | None = None) -> list[float]:
    return [
        number
        for meta in (s.score.metadata or {} for s in scores)
        if (number := _number(meta.get("score"))) is not None and verdict in (None, meta.get("verdict"))
    ]


@metric(scores="unreduced")
def good_pct() -> Metric:
    """Good% = good verdicts / all records (a failed judgment counts as not good): Task 2's headline."""

    def compute(scores: list[SampleScore]) -> float:
        return _share(scores)

    return compute


@metric(scores="unreduced")
def recovery_rate() -> Metric:
    """Recovery Rate = good verdicts on the repairs / all records: Task 3's headline (Good% of repairs)."""

    def compute(scores: list[SampleScore]) -> float:
        return _share(scores)

    return compute


@metric(scores="unreduced")
def good_pct_valid() -> Metric:
    """Good verdicts / (good + bad verdicts): the rate over valid judgments only."""

    def compute(scores: list[SampleScore]) -> float:
        valid = [v for v in _grm(scores, "verdict") if v in ("good", "bad")]
        return _mean([float(v == "good") for v in valid])

    return compute


@metric(scores="unreduced")
def good_pct_stderr() -> Metric:
    """Standard error of Good% (binomial, clustered by record): √(p(1−p)/n) at one epoch, n = all
    records; 95% interval p ± 1.96 × this."""

    def compute(scores: list[SampleScore]) -> float:
        return clustered_stderr(scores)

    return compute


@metric(scores="unreduced")
def fail_rate() -> Metric:
    """Failed answers / all records: the grader answered, and its answer began with neither label.

    A grader error is no answer: the sample errors and is in no metric. An input too long for
    the grader at every rung of the truncation ladder is `failed` (not good) but no answer
    (its `logprobs` is None), so it is not counted here either.
    """

    def compute(scores: list[SampleScore]) -> float:
        facts = zip(_grm(scores, "verdict"), _grm(scores, "logprobs"), strict=True)
        return _mean([float(v == "failed" and answered is not None) for v, answered in facts])

    return compute


@metric(scores="unreduced")
def no_logprob_rate() -> Metric:
    """Grader answers without logprobs / grader answers: those records have a verdict but no score."""

    def compute(scores: list[SampleScore]) -> float:
        answered = [v for v in _grm(scores, "logprobs") if v is not None]
        return _mean([float(v is False) for v in answered])

    return compute


@metric(scores="unreduced")
def score_mean() -> Metric:
    """Mean §5 score P(好)/(P(好)+P(差)) over records that have one."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(_grm_scores(scores))

    return compute


@metric(scores="unreduced")
def score_median() -> Metric:
    """Median §5 score over records that have one (the middle two averaged)."""

    def compute(scores: list[SampleScore]) -> float:
        values = sorted(_grm_scores(scores))
        if not values:
            return NAN
        middle = len(values) // 2
        return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

    return compute


@metric(scores="unreduced")
def good_score_mean() -> Metric:
    """Mean §5 score of the records judged good."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(_grm_scores(scores, "good"))

    return compute


@metric(scores="unreduced")
def bad_score_mean() -> Metric:
    """Mean §5 score of the records judged bad."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(_grm_scores(scores, "bad"))

    return compute


@metric(scores="unreduced")
def delta_score() -> Metric:
    """mean(score of the repair − score of the failed reply) over records where both have a score:
    above 0, the repairs read better to the grader than what the user complained about."""

    def compute(scores: list[SampleScore]) -> float:
        pairs = [
            (_number(meta.get("score")), _number(meta.get("baseline_score")))
            for meta in (s.score.metadata or {} for s in scores)
        ]
        return _mean([score - base for score, base in pairs if score is not None and base is not None])

    return compute


@metric(scores="unreduced")
def score_skipped() -> Metric:
    """Number of records left out of the score means: a stored score that is not a finite number
    (NaN, ±inf), or a good / bad verdict whose P(good) could not be read at its token though the
    answer had logprobs (the reason in the score's `score_skipped`)."""

    def compute(scores: list[SampleScore]) -> float:
        facts = zip(_grm(scores, "score"), _grm(scores, "score_skipped"), strict=True)
        return float(sum((v is not None and _number(v) is None) or bool(why) for v, why in facts))

    return compute
