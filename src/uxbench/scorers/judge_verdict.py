"""Task 1 scorer: did the judge's verdict match what the user felt?

Re-creatable from its registry name and plain arguments, as `inspect score` needs:
`inspect score LOG --scorer uxbench/judge_verdict -S template=cot -S parse=strict` (the
template by built-in prompt name or by path, docs/graders.md#re-grading-a-log).
"""

from __future__ import annotations

import logging

from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from uxbench.data.templates import Template, load_template, template_path
from uxbench.grader_answer.logprobs import Reading
from uxbench.grader_answer.prompt_logprobs import rescore
from uxbench.judge_answer.calibration import answer_reading, calibration_metrics, verdict_offset
from uxbench.judge_answer.verdict import PARSE_MODES, ParseMode, Verdict, parse_verdict
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


def constraint_choices(template: Template) -> list[str]:
    """Every spelling of the template's labels: what `constrain=true` lets the judge answer."""
    if template.answer != "text":
        raise DataError("constrain=true: the template answers in JSON; constraining needs a label answer")
    return [s for spellings in template.labels.values() for s in spellings]


async def _reading(
    state: TaskState, raw: str, verdict: Verdict, judging: Template, constrain: bool
) -> Reading:
    """P(good)'s reading: from the answer's logprobs, or with `constrain` from the prompt logprobs."""
    if not constrain or verdict.label is None:
        return answer_reading(state.output, raw, verdict, judging)
    answered = bool(state.messages) and state.messages[-1].role == "assistant"
    asked = state.messages[:-1] if answered else state.messages
    return await rescore(
        get_model(),
        asked,
        state.output,
        verdict_offset(raw, verdict, judging),
        judging.labels,
        GenerateConfig(),
    )


@scorer(metrics=judge_metrics())
def judge_verdict(
    template: str = "default", labels: str = "binary", parse: ParseMode = "careful", constrain: bool = False
) -> Scorer:
    """1 when the parsed verdict equals the user's label, else 0 (unparseable = wrong).

    Half characters (lone surrogates) in the judge's answer are read as U+FFFD and counted in
    `replaced_surrogates`.

    Args:
        template: the judge template the run used: a built-in prompt name (default,
            user_modeling, cot, few_shot) or the path of your own.
        labels: binary (good/bad) or three_class (adds neutral).
        parse: careful (the template's own rules, then fallbacks) or strict (its own rules only).
        constrain: the run asked the server to answer only a label (`-T constrain=true`): read
            P(good) back from the server's prompt logprobs (vLLM), whatever the tokenizer does
            to the labels.
    """
    if parse not in PARSE_MODES:
        raise DataError(f"parse={parse!r}: choose one of {', '.join(PARSE_MODES)}")
    judging = judge_template(template, labels)
    if constrain:
        constraint_choices(judging)  # a JSON template cannot be constrained

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
        reading = await _reading(state, raw, verdict, judging, constrain)
        p_good = reading.score
        chance = f"no P(good) ({reading.missing})" if p_good is None else f"P(good) {p_good:.3f}"
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
                **({"p_good_missing": reading.missing} if p_good is None else {}),
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
