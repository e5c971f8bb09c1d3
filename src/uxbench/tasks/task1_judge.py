"""Task 1 · UX Judge: predict whether the user liked the reply (docs/protocol.md#task-1-ux-judge)."""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.solver import generate

from uxbench.dataset import uxbench_dataset
from uxbench.errors import DataError
from uxbench.listing import task_version
from uxbench.offline import ensure_tiktoken_cache
from uxbench.scorers.judge import judge_verdict
from uxbench.templates import builtin_path, load_template

PROMPTS = ("default", "user_modeling", "cot", "few_shot")
LABEL_SETS = {"binary": ("good", "bad"), "three_class": ("good", "bad", "neutral")}


@task
def task1_judge(
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    prompt: Literal["default", "user_modeling", "cot", "few_shot"] = "default",
    labels: Literal["binary", "three_class"] = "binary",
    template: str | None = None,
) -> Task:
    """UX Judge.

    Args:
        data: hub, sample, a directory holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable records instead of stopping.
        prompt: built-in prompting strategy: default, user_modeling, cot, few_shot.
        labels: binary (good/bad) or three_class (adds a neutral option).
        template: path of your own judge template (overrides `prompt`).
    """
    if prompt not in PROMPTS:
        raise DataError(f"prompt={prompt!r}: choose one of {', '.join(PROMPTS)}")
    if labels not in LABEL_SETS:
        raise DataError(f"labels={labels!r}: choose one of {', '.join(LABEL_SETS)}")
    ensure_tiktoken_cache()
    judge_template = load_template(template or builtin_path(f"judge_{prompt}.txt"))
    judge_template = judge_template.with_labels(LABEL_SETS[labels])
    dataset, facts = uxbench_dataset("task1", data, revision, skip_bad, judge_template)
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=judge_verdict(judge_template),
        metadata={**task_version().metadata(), **facts, "template": judge_template.source, "labels": labels},
        version=task_version().comparability,
    )
