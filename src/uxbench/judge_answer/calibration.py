"""How far a judge's confidence can be trusted (Task 1), and how well its verdicts agree with users.

P(good) is read from the judge's logprobs at the token the verdict was read from, with the GRM's
reading (`uxbench.grader_answer.logprobs`): P(good) = P(good label) / (P(good label) + P(bad label)),
one-sided when only one label is among the alternatives; a neutral option's probability is
left out. Where the verdict was read decides where P(good) is read (`verdict_offset`): the
label's first standalone spelling after any `</think>` for an answer that starts with it, its
last one for a verdict read from a marker, the last line, JSON or the mentions (reasoning
first, `-T prompt=cot`). An answer whose verdict has no spelling of the template's labels (a
negation, the other language's words, JSON answers), or whose logprobs there cannot give the
labels' ratio (none, NaN / +inf / null where a label's should be, labels of several tokens the
server did not spell), has no P(good); the probability metrics skip it, `p_good_rate` says how
many had one, and the score's `p_good_missing` says why. With `constrain`, P(good) is read back
from the server's prompt logprobs instead (`uxbench.grader_answer.prompt_logprobs`). A
stored P(good) that is not a number in [0, 1] (a log written by an older version) is skipped
too and counted by `p_good_skipped`, as is a constrained judge's reading whose prompt logprobs did
not verify. y = 1 when the user liked the reply, 0 when not.

`mcc` and `kappa` compare the verdict itself with the users' labels on every sample; an
unparseable or neutral answer is its own category, which never matches a user (as in the
accuracies).

Like every UXBench metric these see one score per sample and epoch (`uxbench.scorers.metrics`).
"""

from __future__ import annotations

import re

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Metric, SampleScore

from uxbench.data.assignment import counted
from uxbench.data.templates import Template
from uxbench.grader_answer.logprobs import NOT_LOCATED, Reading, reading_at
from uxbench.grader_answer.prompt_logprobs import SKIP_REASONS
from uxbench.grader_answer.reading import reasoning_end
from uxbench.judge_answer.verdict import Verdict
from uxbench.runtime.metric import metric
from uxbench.stats.agreement import auroc, brier, cohen_kappa, ece, mcc

NAN = float("nan")
NO_LOGPROBS = "no usable logprobs"
NOT_TEXT = "the template answers in JSON"
# the reader's rules that take the answer's first spelling of the label; every other rule its last
FIRST_SPELLING = ("exact", "first_line")
_WORD = re.compile(r"[\w\u4e00-\u9fff]")


def verdict_offset(text: str, verdict: Verdict, template: Template) -> int | None:
    """The character of `text` where the verdict's label was read, or None when no spelling of it
    stands there (a negation, the other language's words, no verdict). Linear in the text."""
    if verdict.label is None:
        return None
    start = reasoning_end(text)
    spellings = sorted(template.labels[verdict.label], key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(s) for s in spellings), re.IGNORECASE)
    found = [
        match.start()
        for match in pattern.finditer(text, start)
        if not (_WORD.match(match.group()[-1]) and _WORD.match(text[match.end() : match.end() + 1]))
    ]
    if not found:
        return None
    return found[0] if verdict.method in FIRST_SPELLING else found[-1]


def answer_reading(output: ModelOutput, text: str, verdict: Verdict, template: Template) -> Reading:
    """The labels' reading at the token the verdict was read from (`text` is the answer as read)."""
    logprobs = output.choices[0].logprobs if output.choices else None
    if logprobs is None:
        return Reading(problem=NO_LOGPROBS)
    if template.answer != "text":
        return Reading(problem=NOT_TEXT)
    offset = verdict_offset(text, verdict, template)
    if offset is None:
        return Reading(problem=NOT_LOCATED)
    return reading_at(logprobs.content, text, offset, template.labels)


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
    """Number of samples left out above although P(good) was asked for: a stored P(good) that is
    not a number in [0, 1] (NaN, ±inf), or a constrained judge's prompt logprobs that did not
    verify (`p_good_missing` names one of `prompt_logprobs.SKIP_REASONS`)."""

    def compute(scores: list[SampleScore]) -> float:
        stored = [s.score.metadata or {} for s in counted(scores)]
        return float(
            sum(
                (meta.get("p_good") is not None and _probability(meta["p_good"]) is None)
                or meta.get("p_good_missing") in SKIP_REASONS
                for meta in stored
            )
        )

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
