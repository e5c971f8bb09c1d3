"""QA agent (`uxbench/pipeline_qa`): last check of the cases that passed the quality gates.

keep / downgrade / reject, the needs-context, needs-image and duplicate-pattern flags, and a
label correction that must come from the label set (docs/protocol.md#label-sets).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from uxbench.data.labels import FAILURE_DIMENSIONS, SUCCESS_PATTERNS
from uxbench.data.templates import fence
from uxbench.pipeline.stages.agents import (
    fill,
    item_dataset,
    label_list,
    load_prompt,
    read_items,
    render_conversation,
    structured_answer,
    valid_answer,
)
from uxbench.pipeline.stages.judge import JUDGE_PROBES, case_text
from uxbench.pipeline.stages.quality import gate_failure
from uxbench.pipeline.stages.rows import JudgedRow
from uxbench.pipeline.stages.schemas import QAVerdict
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.tasks.parameters import typed_parameters

_LABELS = {
    "failure": ("dimension", label_list(FAILURE_DIMENSIONS)),
    "success": ("success pattern", label_list(SUCCESS_PATTERNS)),
}


def qa_items(row: dict[str, Any], gated: bool = True) -> Iterator[dict[str, Any]]:
    """Judged cases worth a QA look: those passing every quality gate (all with `gated=False`)."""
    if not gated or gate_failure(row) is None:
        yield row


def qa_prompter(prompt: str | None = None) -> Callable[[dict[str, Any]], str]:
    """The QA prompt of a judged case (the built-in prompt file or the user's)."""
    template = load_prompt("qa", prompt)

    def render(item: dict[str, Any]) -> str:
        label_name, labels = _LABELS[item["track"]]
        return fill(
            template,
            track=item["track"],
            query_turn=str(item["case"]["query_turn"]),
            label_name=label_name,
            labels=labels,
            case=case_text(item),
            scores=fence("scores", json.dumps(item["scores"], ensure_ascii=False)),
            conversation=render_conversation(item),
        )

    return render


# the probe items a run's identity renders the prompt on (runtime/identity.py)
QA_PROBES = {
    name: {**item, "scores": {"severity": 4, "note": "</scores>"}} for name, item in JUDGE_PROBES.items()
}


@task
@typed_parameters
def pipeline_qa(input: str, gated: bool = True, max_attempts: int = 3, prompt: str | None = None) -> Task:
    """QA: keep / downgrade / reject each judged case that passed the quality gates.

    Args:
        input: judged cases (JSONL exported from the judge stage).
        gated: check only cases passing the quality gates (false: every judged case).
        max_attempts: answers tried per case before it counts as invalid.
        prompt: your own QA prompt file.
    """
    ensure_tiktoken_cache()
    render = qa_prompter(prompt)
    return Task(
        dataset=item_dataset(
            read_items(input, lambda row: qa_items(row, gated), JudgedRow), render, "pipeline_qa", input
        ),
        solver=structured_answer(lambda item: QAVerdict, lambda item: {"track": item["track"]}, max_attempts),
        scorer=valid_answer(),
        config=GenerateConfig(temperature=0.0, max_tokens=1024),
        version="3.0.0",  # 2: every quoted text fenced; 3: fence-shaped lines inside them neutralised
    )


def collect_qa(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every checked case with its QA verdict (None when the QA answer was invalid)."""
    rows: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for result in results:
        verdict = result["result"]
        counts["samples"] += 1
        counts["reasked"] += result["attempts"] > 1
        if verdict is None:
            counts["invalid"] += 1
        else:
            counts[f"verdict_{verdict['verdict']}"] += 1
            for flag in ("needs_context", "needs_image", "duplicate_pattern"):
                counts[flag] += bool(verdict[flag])
            counts["label_corrected"] += verdict["corrected_label"] is not None
        rows.append({**result["item"], "qa": verdict})
    return rows, dict(sorted(counts.items()))
