"""How far a judge's confidence can be trusted (Task 1), and how well its verdicts agree with users.

P(good) is read from the judge's logprobs at the first answer token, with the GRM's token
handling (`uxbench.grading.grm.label_logprobs`): P(good) = P(good label) / (P(good label) + P(bad
label)), one-sided when only one label is among the alternatives; a neutral option's
probability is left out. Answers that do not start with the label (reasoning first, JSON
answers) or come without usable logprobs (none, or NaN / +inf / null where the label's
should be; −inf is probability 0) have no P(good), and the probability metrics skip them;
`p_good_rate` says how many had one. A stored P(good) that is not a number in [0, 1] (a
log written by an older version) is skipped too and counted by `p_good_skipped`. y = 1
when the user liked the reply, 0 when not.

`mcc` and `kappa` compare the verdict itself with the users' labels on every sample; an
unparseable or neutral answer is its own category, which never matches a user (as in the
accuracies).

Like every UXBench metric these see one score per sample and epoch (`uxbench.scorers.metrics`).
"""

from __future__ import annotations

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Metric, SampleScore

from uxbench.data.assignment import counted
from uxbench.data.templates import Template
from uxbench.grading.grm import label_logprobs, score_of
from uxbench.runtime.metric import metric
from uxbench.stats.agreement import auroc, brier, cohen_kappa, ece, mcc

NAN = float("nan")


def answer_p_good(output: ModelOutput, template: Template) -> float | None:
    """P(good) from the first answer token's alternatives, or None when it cannot be read."""
    logprobs = output.choices[0].logprobs if output.choices else None
    if logprobs is None or template.answer != "text":
        return None
    found = label_logprobs(logprobs.content, template.labels)
    return score_of(found["good"], found["bad"]) if found is not None else None


# ---------------------------------------------------------------- Task 1 metrics


def _probability(value: object) -> float | None:
    """A stored P(good) as a float, or None when it is missing or not a number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0.0 <= value <= 1.0 else None  # NaN fails both comparisons


def probabilities(scores: list[SampleScore]) -> tuple[list[float], list[int]]:
    """(P(good), y) of the samples that have a usable P(good)."""
    pairs = [
        (p, int(meta.get("label") == "good"))
        for meta in (s.score.metadata or {} for s in counted(scores))
        if (p := _probability(meta.get("p_good"))) is not None
    ]
    return [p for p, _ in pairs], [y for _, y in pairs]


def _verdicts(scores: list[SampleScore]) -> tuple[list[str], list[str]]:
    """(the judge's verdicts, the users' labels); no verdict is the category 'none'."""
    records = counted(scores)
    said = [str(s.score.answer) if s.score.answer is not None else "none" for s in records]
    return said, [str((s.score.metadata or {}).get("label")) for s in records]


@metric(scores="unreduced")
def p_good_rate() -> Metric:
    """Share of samples whose answer carried a readable P(good) (the base of auroc, brier and ece)."""

    def compute(scores: list[SampleScore]) -> float:
        records = counted(scores)
        return len(probabilities(records)[0]) / len(records) if records else NAN

    return compute


@metric(scores="unreduced")
def p_good_skipped() -> Metric:
    """Number of samples whose stored P(good) is not a number in [0, 1] (NaN, ±inf): left out above."""

    def compute(scores: list[SampleScore]) -> float:
        stored = [(s.score.metadata or {}).get("p_good") for s in counted(scores)]
        return float(sum(value is not None and _probability(value) is None for value in stored))

    return compute


@metric("auroc", scores="unreduced")
def auroc_metric() -> Metric:
    """AUROC of P(good) for telling liked from disliked replies: 0.5 is chance, 1 perfect ranking."""

    def compute(scores: list[SampleScore]) -> float:
        return auroc(*probabilities(scores))

    return compute


@metric("brier", scores="unreduced")
def brier_metric() -> Metric:
    """Brier score Σ (P(good) − y)² / n: 0 is perfect, 0.25 is a constant 0.5."""

    def compute(scores: list[SampleScore]) -> float:
        return brier(*probabilities(scores))

    return compute


@metric("ece", scores="unreduced")
def ece_metric() -> Metric:
    """Expected calibration error over 10 equal-width P(good) bins: Σ_b (n_b/n)·|mean y_b − mean p_b|."""

    def compute(scores: list[SampleScore]) -> float:
        return ece(*probabilities(scores))

    return compute


@metric("mcc", scores="unreduced")
def mcc_metric() -> Metric:
    """Matthews correlation between the verdicts and the users' labels (−1 … 1, 0 = no skill)."""

    def compute(scores: list[SampleScore]) -> float:
        return mcc(*_verdicts(scores))

    return compute


@metric("kappa", scores="unreduced")
def kappa_metric() -> Metric:
    """Cohen's κ between the verdicts and the users' labels (0 = chance agreement, 1 = perfect)."""

    def compute(scores: list[SampleScore]) -> float:
        return cohen_kappa(*_verdicts(scores))

    return compute


def calibration_metrics() -> list[Metric]:
    """The Task 1 trust metrics, in report order."""
    return [
        mcc_metric(),
        kappa_metric(),
        auroc_metric(),
        brier_metric(),
        ece_metric(),
        p_good_rate(),
        p_good_skipped(),
    ]
