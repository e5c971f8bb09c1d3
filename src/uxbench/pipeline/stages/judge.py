"""Judge agent (`uxbench/pipeline_judge`): score each mined case on five axes
(docs/protocol.md#construction-pipeline).

The tier is computed from the scores by `quality.tier`, never asked of the model.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from uxbench.data.templates import fence
from uxbench.pipeline.stages.agents import (
    PROBE_ITEM,
    fill,
    item_dataset,
    load_prompt,
    read_items,
    render_conversation,
    structured_answer,
    valid_answer,
)
from uxbench.pipeline.stages.miner import REPLY_TURN
from uxbench.pipeline.stages.quality import AXES, case_gate_failure, mean_score, tier
from uxbench.pipeline.stages.rows import MinedRow
from uxbench.pipeline.stages.schemas import JudgeScores
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.tasks.parameters import typed_parameters

_TRACK_WORDS = {
    "failure": {
        "feeling": "dissatisfied",
        "severity": "how badly did the failure hurt the user's experience "
        "(5 = the user's goal was defeated)?",
        "notes": "A case with a wrong turn number, a label that does not fit, or dissatisfaction "
        "the log does not show deserves low scores.",
    },
    "success": {
        "feeling": "satisfied",
        "severity": "how much did the reply matter to the user (5 = it clearly solved or delighted)?",
        "notes": "A case with a wrong turn number, a pattern that does not fit, or satisfaction "
        "the log does not show deserves low scores.",
    },
}


def judge_items(row: dict[str, Any], gated: bool = True) -> Iterator[dict[str, Any]]:
    """Mined cases worth judging: those passing the gates on their own fields (all with `gated=False`)."""
    if not gated or case_gate_failure(row) is None:
        yield row


def case_text(item: dict[str, Any]) -> str:
    """The miner's annotation, fenced: its free text (a copied complaint, an explanation) cannot
    close the field or pose as the prompt's next heading."""
    return fence("case", json.dumps(item["case"], ensure_ascii=False, indent=1))


def judge_prompter(prompt: str | None = None) -> Callable[[dict[str, Any]], str]:
    """The judge's prompt of a mined case (the built-in prompt file or the user's)."""
    template = load_prompt("judge", prompt)

    def render(item: dict[str, Any]) -> str:
        case = item["case"]
        return fill(
            template,
            track=item["track"],
            query_turn=str(case["query_turn"]),
            reply_turn=str(case[REPLY_TURN[item["track"]]]),
            case=case_text(item),
            conversation=render_conversation(item),
            **_TRACK_WORDS[item["track"]],
        )

    return render


# the probe items a run's identity renders the prompt on (runtime/identity.py)
JUDGE_PROBES = {
    "failure": {
        **PROBE_ITEM,
        "track": "failure",
        "case": {"query_turn": 0, "failed_turn": 1, "note": "{case}"},
    },
    "success": {**PROBE_ITEM, "track": "success", "case": {"query_turn": 0, "liked_turn": 1, "note": "好"}},
}


@task
@typed_parameters
def pipeline_judge(input: str, gated: bool = True, max_attempts: int = 3, prompt: str | None = None) -> Task:
    """Judge: five 1-5 quality scores per mined case.

    Args:
        input: mined cases (JSONL exported from the miner stage).
        gated: judge only cases whose own fields pass the quality gates (false: every case).
        max_attempts: answers tried per case before it counts as invalid.
        prompt: your own judge prompt file.
    """
    ensure_tiktoken_cache()
    render = judge_prompter(prompt)
    return Task(
        dataset=item_dataset(
            read_items(input, lambda row: judge_items(row, gated), MinedRow), render, "pipeline_judge", input
        ),
        solver=structured_answer(lambda item: JudgeScores, lambda item: {}, max_attempts),
        scorer=valid_answer(),
        config=GenerateConfig(temperature=0.0, max_tokens=1024),
        version="3.0.0",  # 2: every quoted text fenced; 3: fence-shaped lines inside them neutralised
    )


def collect_judge(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every case with its scores, mean and computed tier (None when the judge gave no valid answer)."""
    rows: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for result in results:
        answer = result["result"]
        scores = {a: answer[a] for a in AXES} if answer is not None else None
        counts["samples"] += 1
        counts["reasked"] += result["attempts"] > 1
        counts[f"tier_{tier(scores)}" if scores else "invalid"] += 1
        rows.append(
            {
                **result["item"],
                "scores": scores,
                "mean": round(mean_score(scores), 3) if scores else None,
                "tier": tier(scores) if scores else None,
                "judge_rationale": answer.get("rationale", "") if answer else "",
            }
        )
    return rows, dict(sorted(counts.items()))
