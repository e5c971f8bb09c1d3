"""Columns for `inspect_ai.analysis.samples_df`: UXBench's per-sample facts as flat columns.

`samples_df` gives each scorer's value (`score_judge_verdict`, `score_grm`: 1 or 0) but
keeps score metadata out of its default columns. Add these to read P(good) and the GRM
score as numbers, one row per sample and epoch:

    from inspect_ai.analysis import SampleSummary, samples_df
    from uxbench.analysis import SCORE_COLUMNS

    df = samples_df("logs", columns=SampleSummary + SCORE_COLUMNS)
    df.groupby("model")["grm_score"].mean()
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.analysis import SampleColumn
from inspect_ai.log import EvalSample, EvalSampleSummary
from pydantic import JsonValue

# the scorer names of the three tasks
__all__ = ["SCORE_COLUMNS"]

SCORERS = ("judge_verdict", "grm")


def _fact(key: str) -> Callable[[EvalSample | EvalSampleSummary], JsonValue]:
    """A score-metadata fact of the sample's UXBench score (None when it has none)."""

    def read(sample: EvalSample | EvalSampleSummary) -> JsonValue:
        for name in SCORERS:
            score = (sample.scores or {}).get(name)
            if score is not None and score.metadata and key in score.metadata:
                value: JsonValue = score.metadata[key]
                return value
        return None

    return read


SCORE_COLUMNS: list[SampleColumn] = [
    # Task 1: the judge's P(good) from its logprobs, and the users' label (good = liked)
    SampleColumn("p_good", path=_fact("p_good"), type=float),
    SampleColumn("label", path=_fact("label"), type=str),
    # Tasks 2/3: the grader's verdict and §5 score, the truncation rung, the failed reply's score
    SampleColumn("grm_verdict", path=_fact("verdict"), type=str),
    SampleColumn("grm_score", path=_fact("score"), type=float),
    SampleColumn("grm_rung", path=_fact("rung"), type=int),
    SampleColumn("grm_baseline_score", path=_fact("baseline_score"), type=float),
]
"""Flat columns: `p_good`, `label`, `grm_verdict`, `grm_score`, `grm_rung`, `grm_baseline_score`."""
