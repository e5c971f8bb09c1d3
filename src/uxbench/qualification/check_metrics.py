"""How far a grader is from a reference grade: the metrics of `uxbench/grader_check`.

Each sample is one reply with a known reference verdict (good / bad: the user's thumbs, or
UXBench-GRM's published grade) and, from the `uxbench/grm` scorer, the grader's verdict
(good / bad / failed) and score P(好)/(P(好)+P(差)). A failed grader answer counts as not
good, as in Good%, so that the correction p* = (p + spec − 1)/(sens + spec − 1)
(`uxbench.qualification.correction`) applies to a raw Good% exactly. Like every UXBench metric these see
one score per sample and epoch.
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspect_ai.scorer import Metric, SampleScore, Value

from uxbench.grader_answer.reading import FAILED, GOOD
from uxbench.runtime.metric import metric
from uxbench.stats.agreement import auroc, cohen_kappa

NAN = float("nan")
MODEL_KEY = "judged_model"  # sample metadata: whose reply it is (published references only)


@dataclass(frozen=True)
class Pair:
    """One graded reply: the reference's verdict and score beside the grader's."""

    reference: str  # good / bad
    grader: str  # good / bad / failed
    reference_score: float | None
    grader_score: float | None
    model: str | None


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def pair(s: SampleScore) -> Pair:
    """The one place these metrics read a GRM Score (verdict and score) and the sample's reference."""
    graded = s.score.metadata or {}
    sample = s.sample_metadata or {}
    return Pair(
        reference=str(sample.get("reference_verdict")),
        grader=str(graded.get("verdict", FAILED)),
        reference_score=_finite(sample.get("reference_score")),
        grader_score=_finite(graded.get("score")),
        model=sample.get(MODEL_KEY),
    )


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else NAN


# ---------------------------------------------------------------- statistics of a list of pairs


def agreement_of(pairs: list[Pair]) -> float:
    return _mean([float(p.grader == p.reference) for p in pairs])


def kappa_of(pairs: list[Pair]) -> float:
    return cohen_kappa([p.grader for p in pairs], [p.reference for p in pairs])


def sensitivity_of(pairs: list[Pair]) -> float:
    return _mean([float(p.grader == GOOD) for p in pairs if p.reference == GOOD])


def specificity_of(pairs: list[Pair]) -> float:
    return _mean([float(p.grader != GOOD) for p in pairs if p.reference != GOOD])


def youden_of(pairs: list[Pair]) -> float:
    return sensitivity_of(pairs) + specificity_of(pairs) - 1


def auroc_of(pairs: list[Pair]) -> float:
    scored = [p for p in pairs if p.grader_score is not None]
    return auroc([p.grader_score for p in scored], [int(p.reference == GOOD) for p in scored])  # type: ignore[misc]


def spearman_of(pairs: list[Pair]) -> float:
    both = [
        (p.grader_score, p.reference_score) for p in pairs if None not in (p.grader_score, p.reference_score)
    ]
    if len({g for g, _ in both}) < 2 or len({r for _, r in both}) < 2:
        return NAN  # no ranking on one side: undefined
    from scipy.stats import spearmanr  # imported here: keeps the entry point light

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(spearmanr([g for g, _ in both], [r for _, r in both]).statistic)


def grader_good_of(pairs: list[Pair]) -> float:
    return _mean([float(p.grader == GOOD) for p in pairs])


def reference_good_of(pairs: list[Pair]) -> float:
    return _mean([float(p.reference == GOOD) for p in pairs])


def gap_of(pairs: list[Pair]) -> float:
    return grader_good_of(pairs) - reference_good_of(pairs)


def fail_of(pairs: list[Pair]) -> float:
    return _mean([float(p.grader == FAILED) for p in pairs])


def n_good_of(pairs: list[Pair]) -> float:
    return float(sum(p.reference == GOOD for p in pairs))


def n_bad_of(pairs: list[Pair]) -> float:
    return float(sum(p.reference != GOOD for p in pairs))


# name → statistic, in report order; `per_model` gives each of them per judged model
STATISTICS: dict[str, Callable[[list[Pair]], float]] = {
    "agreement": agreement_of,
    "agreement_kappa": kappa_of,
    "sensitivity": sensitivity_of,
    "specificity": specificity_of,
    "youden": youden_of,
    "score_auroc": auroc_of,
    "score_spearman": spearman_of,
    "grader_good_pct": grader_good_of,
    "reference_good_pct": reference_good_of,
    "good_pct_gap": gap_of,
    "grader_fail_rate": fail_of,
    "n_reference_good": n_good_of,
    "n_reference_bad": n_bad_of,
}


def _pairs(scores: list[SampleScore]) -> list[Pair]:
    return [pair(s) for s in scores]


def _on_pairs(statistic: Callable[[list[Pair]], Value]) -> Metric:
    """A metric computing `statistic` over the samples' pairs."""

    def compute(scores: list[SampleScore]) -> Value:
        return statistic(_pairs(scores))

    return compute


# ---------------------------------------------------------------- metrics


@metric(scores="unreduced")
def agreement() -> Metric:
    """Share of replies on which the grader's verdict equals the reference's (a failed answer never does)."""
    return _on_pairs(agreement_of)


@metric(scores="unreduced")
def agreement_kappa() -> Metric:
    """Cohen's κ = (p_o − p_e)/(1 − p_e) of the grader's verdicts (good/bad/failed) and the reference's."""
    return _on_pairs(kappa_of)


@metric(scores="unreduced")
def sensitivity() -> Metric:
    """sens = grader good / reference good: how often the grader calls a reference-good reply good."""
    return _on_pairs(sensitivity_of)


@metric(scores="unreduced")
def specificity() -> Metric:
    """spec = grader not good (bad or failed) / reference bad: how often it refuses a reference-bad reply."""
    return _on_pairs(specificity_of)


@metric(scores="unreduced")
def youden() -> Metric:
    """J = sens + spec − 1 (0: the verdict ignores the reply; below 0.2 too weak to correct a Good% with)."""
    return _on_pairs(youden_of)


@metric(scores="unreduced")
def score_auroc() -> Metric:
    """AUROC of the grader's score for telling reference-good from reference-bad replies (ties ½)."""
    return _on_pairs(auroc_of)


@metric(scores="unreduced")
def score_spearman() -> Metric:
    """Spearman's ρ (ties as mid-ranks) of the grader's score and the reference score, where both exist."""
    return _on_pairs(spearman_of)


@metric(scores="unreduced")
def grader_good_pct() -> Metric:
    """The grader's Good% on these replies: good verdicts / all."""
    return _on_pairs(grader_good_of)


@metric(scores="unreduced")
def reference_good_pct() -> Metric:
    """The reference's Good% on these replies: reference-good / all."""
    return _on_pairs(reference_good_of)


@metric(scores="unreduced")
def good_pct_gap() -> Metric:
    """grader_good_pct − reference_good_pct: above 0, the grader is more lenient than the reference."""
    return _on_pairs(gap_of)


@metric(scores="unreduced")
def grader_fail_rate() -> Metric:
    """Grader answers that began with neither label (or errored) / all: they count as not good."""
    return _on_pairs(fail_of)


@metric(scores="unreduced")
def reference_counts() -> Metric:
    """n_reference_good, n_reference_bad: the bases of sensitivity and specificity (for their errors)."""
    return _on_pairs(lambda pairs: {"n_reference_good": n_good_of(pairs), "n_reference_bad": n_bad_of(pairs)})


@metric(scores="unreduced")
def per_model() -> Metric:
    """Every statistic above within each judged model's replies, named `<statistic>:<model>`.

    A spread between models means the grader's errors depend on whose reply it grades, and a
    correction with the pooled sens and spec is then biased for some models.
    """

    def compute(scores: list[SampleScore]) -> Value:
        groups: dict[str, list[Pair]] = defaultdict(list)
        for p in _pairs(scores):
            if p.model is not None:
                groups[str(p.model)].append(p)
        return {
            f"{name}:{model}": statistic(group)
            for model, group in sorted(groups.items())
            for name, statistic in STATISTICS.items()
        }

    return compute


@metric(scores="unreduced")
def judge_accuracy() -> Metric:
    """Against the users' thumbs, as Task 1 reports a judge: good_acc = sens, bad_acc = spec,
    avg_acc = (good_acc + bad_acc)/2 (comparable with UXBench-GRM's published Task 1 row)."""

    def accuracies(pairs: list[Pair]) -> Value:
        good, bad = sensitivity_of(pairs), specificity_of(pairs)
        return {"avg_acc": (good + bad) / 2, "good_acc": good, "bad_acc": bad}

    return _on_pairs(accuracies)


def grader_check_metrics(users: bool) -> list[Metric]:
    """The task's metrics; against the users, led by the Task 1 accuracies."""
    metrics = [
        agreement(),
        agreement_kappa(),
        sensitivity(),
        specificity(),
        youden(),
        score_auroc(),
        score_spearman(),
        grader_good_pct(),
        reference_good_pct(),
        good_pct_gap(),
        grader_fail_rate(),
        reference_counts(),
    ]
    return [judge_accuracy(), *metrics] if users else [*metrics, per_model()]
