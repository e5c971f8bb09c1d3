"""Task 1 scorer: did the judge's verdict match what the user felt?"""

from __future__ import annotations

import logging

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from uxbench.data.templates import Template
from uxbench.judge.calibration import answer_p_good, calibration_metrics
from uxbench.judge.verdict import ParseMode, parse_verdict
from uxbench.runtime.surrogates import replace_lone_surrogates
from uxbench.scorers.metrics import (
    avg_acc,
    avg_acc_stderr,
    bad_acc,
    breakdown,
    good_acc,
    headline_stderr,
    neutral_rate,
    parse_fail_rate,
)

GROUP_KEYS = ["difficulty", "failure_dimension", "success_pattern", "scenario"]
logger = logging.getLogger(__name__)


@scorer(
    metrics=[
        avg_acc(),
        good_acc(),
        bad_acc(),
        avg_acc_stderr(),
        headline_stderr("avg_acc"),
        parse_fail_rate(),
        neutral_rate(),
        breakdown(GROUP_KEYS),
        *calibration_metrics(),
    ]
)
def judge_verdict(template: Template, parse: ParseMode = "careful") -> Scorer:
    """1 when the parsed verdict equals the user's label, else 0 (unparseable = wrong).

    `parse` chooses the reading: careful (the default) or strict (the template's own rules only).
    Half characters (lone surrogates) in the judge's answer are read as U+FFFD and counted in
    `replaced_surrogates`.
    """

    async def score(state: TaskState, target: Target) -> Score:
        raw, replaced = replace_lone_surrogates(state.output.completion)
        if replaced:
            logger.warning("uxbench: sample %s: %d half character(s) in the judge's answer read as U+FFFD",
                           state.sample_id, replaced)  # fmt: skip
        verdict = parse_verdict(raw, template, parse)
        gold = target.text
        feeling = "liked" if gold == "good" else "disliked"
        said = verdict.label or "nothing readable"
        return Score(
            value=1 if verdict.label == gold else 0,
            answer=verdict.label,
            explanation=f"judge said {said} (read by rule '{verdict.method}'); the user {feeling} it",
            metadata={
                "label": gold,
                "parse": verdict.method,
                "raw": raw,
                "p_good": answer_p_good(state.output, template),
                "replaced_surrogates": replaced,
            },
        )

    return score
