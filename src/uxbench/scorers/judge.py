"""Task 1 scorer: did the judge's verdict match what the user felt?

Re-creatable from its registry name and plain arguments, as `inspect score` needs:
`inspect score LOG --scorer uxbench/judge_verdict -S template=cot -S parse=strict` (the
template by built-in prompt name or by path, docs/graders.md#re-grading-a-log).
"""

from __future__ import annotations

import logging

from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from uxbench.data.templates import Template, load_template, template_path
from uxbench.judge.calibration import answer_p_good, calibration_metrics
from uxbench.judge.verdict import PARSE_MODES, ParseMode, parse_verdict
from uxbench.runtime.errors import DataError
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
from uxbench.scorers.shown import shown_raw

GROUP_KEYS = ["difficulty", "failure_dimension", "success_pattern", "scenario"]
logger = logging.getLogger(__name__)
PROMPTS = ("default", "user_modeling", "cot", "few_shot")
LABEL_SETS = {"binary": ("good", "bad"), "three_class": ("good", "bad", "neutral")}


def judge_template(template: str = "default", labels: str = "binary") -> Template:
    """A judge template by built-in prompt name (default, user_modeling, cot, few_shot) or by path,
    answering the label set `labels` (binary or three_class)."""
    if labels not in LABEL_SETS:
        raise DataError(f"labels={labels!r}: choose one of {', '.join(LABEL_SETS)}")
    return load_template(template_path(f"judge_{template}" if template in PROMPTS else template)).with_labels(
        LABEL_SETS[labels]
    )


def judge_metrics() -> list[Metric]:
    """Task 1's metrics (a run with gold items adds `gold_acc`)."""
    return [
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


@scorer(metrics=judge_metrics())
def judge_verdict(template: str = "default", labels: str = "binary", parse: ParseMode = "careful") -> Scorer:
    """1 when the parsed verdict equals the user's label, else 0 (unparseable = wrong).

    Half characters (lone surrogates) in the judge's answer are read as U+FFFD and counted in
    `replaced_surrogates`.

    Args:
        template: the judge template the run used: a built-in prompt name (default,
            user_modeling, cot, few_shot) or the path of your own.
        labels: binary (good/bad) or three_class (adds neutral).
        parse: careful (the template's own rules, then fallbacks) or strict (its own rules only).
    """
    if parse not in PARSE_MODES:
        raise DataError(f"parse={parse!r}: choose one of {', '.join(PARSE_MODES)}")
    judging = judge_template(template, labels)

    async def score(state: TaskState, target: Target) -> Score:
        raw, replaced = replace_lone_surrogates(state.output.completion)
        if replaced:
            logger.warning("uxbench: sample %s: %d half character(s) in the judge's answer read as U+FFFD",
                           state.sample_id, replaced)  # fmt: skip
        verdict = parse_verdict(raw, judging, parse)
        expected = target.text
        feeling = "the user " + ("liked" if expected == "good" else "disliked") + " it"
        if state.metadata.get("gold"):
            feeling = f"gold item, known answer {expected}"
        p_good = answer_p_good(state.output, judging)
        chance = "no P(good) (no usable logprobs)" if p_good is None else f"P(good) {p_good:.3f}"
        said = f"{verdict.label or 'nothing readable'} (read by rule '{verdict.method}'), {chance}"
        # what a reader checks first leads, in the explanation and in the metadata (inspect view)
        explanation = f"judge said {said}; {feeling}"
        skipped_by = skipper(state)
        if skipped_by:
            explanation = f"skipped by {skipped_by}; {feeling}"
        return Score(
            value=1 if verdict.label == expected else 0,
            answer=verdict.label,  # None for a skip too: parse_fail_rate counts it, as the protocol asks
            explanation=explanation,
            metadata={
                "parse": verdict.method,
                "p_good": p_good,
                "label": expected,
                "raw": shown_raw(raw),
                "replaced_surrogates": replaced,
                **({"seconds": state.output.metadata["seconds"]} if _by_person(state) else {}),
                **({"gold": True} if state.metadata.get("gold") else {}),
            },
        )

    return score


def _by_person(state: TaskState) -> bool:
    """A `uxbench/human` answer: its time on screen goes into the score, for the report's items per hour."""
    metadata = state.output.metadata or {}
    return "seconds" in metadata and "annotator" in metadata


def skipper(state: TaskState) -> str | None:
    """The annotator who skipped this item (a `uxbench/human` answer marked skipped), else None."""
    metadata = state.output.metadata or {}
    return str(metadata.get("annotator")) if metadata.get("skipped") else None
