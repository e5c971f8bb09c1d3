"""Grader ensembles: several graders judge every reply, and the panel's verdict is what counts.

Bind them as model roles `grader`, `grader_2`, `grader_3`, … (`--model-role grader=A
--model-role grader_2=B`). With one grader nothing changes. With more, each grader's
verdict and score go into the sample's score metadata under `graders`, and the sample's
own `verdict` and `score` become the panel's:

- verdict: the majority of the good and bad votes; a failed grader abstains. A tie goes
  to the mean score (good when ≥ 0.5, bad below); a tie without any score, or no vote at
  all, is failed.
- score: the mean of the graders' scores (None when no grader has one).

So every GRM metric (Good%, score mean, …) describes the panel, and `grader_agreement`
adds each grader's own Good% and how far the graders agree (with --epochs, each epoch's
panel is one unit, as in every UXBench metric: `uxbench.scorers.metrics`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Value, krippendorff_alpha

from uxbench.grader_answer.reading import BAD, FAILED, GOOD, Verdict
from uxbench.runtime.metric import metric
from uxbench.stats.agreement import cohen_kappa

NAN = float("nan")


def panel_verdict(votes: Sequence[tuple[Verdict, float | None]]) -> tuple[Verdict, float | None]:
    """The panel's (verdict, mean score) from each grader's (verdict, score); see the module rule."""
    scores = [score for _, score in votes if score is not None]
    mean = sum(scores) / len(scores) if scores else None
    good = sum(verdict == GOOD for verdict, _ in votes)
    bad = sum(verdict == BAD for verdict, _ in votes)
    if good != bad:
        return (GOOD if good > bad else BAD), mean
    if not good or mean is None:
        return FAILED, mean
    return (GOOD if mean >= 0.5 else BAD), mean


def _panels(scores: list[SampleScore]) -> list[list[Mapping[str, Any]]]:
    return [meta["graders"] for meta in (s.score.metadata or {} for s in scores) if meta.get("graders")]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else NAN


@metric(scores="unreduced")
def grader_agreement() -> Metric:
    """Per grader and across graders, for ensemble runs (nothing when one grader graded).

    - `grader_good_pct:<role>`: that grader's Good% (good verdicts / all records);
    - `grader_alpha`: Krippendorff's α (nominal) over the verdicts good / bad / failed:
      1 − D_o / D_e, observed over expected disagreement (Inspect's `krippendorff_alpha`);
    - `grader_kappa`: Cohen's κ between the two graders (two-grader panels only);
    - `grader_unanimous`: share of records on which every grader gave the same verdict.
    """

    def compute(scores: list[SampleScore]) -> Value:
        panels = _panels(scores)
        if not panels:
            return {}
        roles = [grader["role"] for grader in panels[0]]
        verdicts = [[grader["verdict"] for grader in panel] for panel in panels]
        result: dict[str, float] = {}
        for index, role in enumerate(roles):
            result[f"grader_good_pct:{role}"] = _mean([float(v[index] == GOOD) for v in verdicts])
        units = [SampleScore(score=Score(value=v)) for v in verdicts]
        result["grader_alpha"] = float(krippendorff_alpha("nominal")(units))  # type: ignore[arg-type]
        if len(roles) == 2:
            result["grader_kappa"] = cohen_kappa([v[0] for v in verdicts], [v[1] for v in verdicts])
        result["grader_unanimous"] = _mean([float(len(set(v)) == 1) for v in verdicts])
        return result

    return compute
