"""A change in what a task sends (a template file, or how the code renders it: fences, headings,
cutting) changes results, so it needs a task version bump (eval.yaml, CHANGELOG): the rendered
prompts of every task and prompt choice, on the probe conversation and on the bundled sample
records (`-T data=sample`), are pinned here per task version."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task

from uxbench.runtime.identity import IDENTITY_KEY, text_digest
from uxbench.runtime.listing import task_version
from uxbench.scorers.judge_verdict import PROMPTS
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import SYSTEM_PROMPTS, task2_eval
from uxbench.tasks.task3_recovery import STRATEGIES, task3_recovery

PINNED = Path(__file__).with_name("prompt_digests.json")

VARIANTS: dict[str, Callable[[], Task]] = {
    **{f"task1_judge prompt={p}": (lambda p=p: task1_judge(data="sample", prompt=p)) for p in PROMPTS},
    "task1_judge labels=three_class": lambda: task1_judge(data="sample", labels="three_class"),
    **{
        f"task2_eval system_prompt={p}": (
            lambda p=p: task2_eval(data="sample", system_prompt=p, self_grade=True)
        )
        for p in SYSTEM_PROMPTS
    },
    **{
        f"task3_recovery strategy={s}": (
            lambda s=s: task3_recovery(data="sample", strategy=s, self_grade=True)
        )
        for s in STRATEGIES
    },
    "grader_check": lambda: grader_check(data="sample"),
}


def digests(task: Task) -> dict[str, Any]:
    """What the task records of its identity, and its sample inputs (Task 1's are rendered prompts)."""
    recorded = dict(task.metadata[IDENTITY_KEY])
    recorded.pop("package_version")
    inputs = [sample.input if isinstance(sample.input, str) else "" for sample in task.dataset]
    return {**recorded, "sample_inputs": text_digest("\x00".join(inputs))}


def test_the_rendered_prompts_change_only_with_the_task_version() -> None:
    version = task_version().full
    found = {name: digests(make()) for name, make in VARIANTS.items()}
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    entry = json.dumps({version: found}, indent=2, ensure_ascii=False, sort_keys=True)
    if version not in pinned:
        pytest.fail(f"task version {version} has no pinned prompt digests: add to {PINNED.name}:\n{entry}")
    changed = sorted(
        name for name in found.keys() | pinned[version].keys() if found.get(name) != pinned[version].get(name)
    )
    assert not changed, (
        f"the prompts of {', '.join(changed)} changed without a task version bump: bump `version` in "
        "src/uxbench/eval.yaml (and say why in CHANGELOG.md), then pin the new digests in "
        f"{PINNED.name}:\n{entry}"
    )
