"""Task 1 · UX Judge: predict whether the user liked the reply (docs/protocol.md#task-1-ux-judge)."""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from uxbench.data.dataset import uxbench_dataset
from uxbench.data.templates import builtin_path, load_template
from uxbench.judge.verdict import PARSE_MODES, ParseMode
from uxbench.runtime.errors import DataError
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.runtime.tags import run_tags
from uxbench.scorers.judge import judge_verdict
from uxbench.tasks.listing import task_version
from uxbench.tasks.solvers import generate_answer

PROMPTS = ("default", "user_modeling", "cot", "few_shot")
LABEL_SETS = {"binary": ("good", "bad"), "three_class": ("good", "bad", "neutral")}

# the paper's Task 1 generation settings (docs/protocol.md#task-1-ux-judge); flags override
CONFIG = GenerateConfig(temperature=0.2, max_tokens=4096)


@task
def task1_judge(
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    exclude: str | None = None,
    prompt: Literal["default", "user_modeling", "cot", "few_shot"] = "default",
    labels: Literal["binary", "three_class"] = "binary",
    template: str | None = None,
    parse: ParseMode = "careful",
) -> Task:
    """UX Judge.

    Args:
        data: hub, sample, a directory holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable records instead of stopping.
        exclude: an exclusion file (JSONL of cid, reason, who, when; `uxbench explore`
            writes it): leave its records out and count them (`excluded_records`).
        prompt: built-in prompting strategy: default, user_modeling, cot, few_shot.
        labels: binary (good/bad) or three_class (adds a neutral option).
        template: path of your own judge template (overrides `prompt`).
        parse: careful (the template's own rules, then fallbacks a careful reader would use)
            or strict (the template's own rules only).
    """
    if prompt not in PROMPTS:
        raise DataError(f"prompt={prompt!r}: choose one of {', '.join(PROMPTS)}")
    if labels not in LABEL_SETS:
        raise DataError(f"labels={labels!r}: choose one of {', '.join(LABEL_SETS)}")
    if parse not in PARSE_MODES:
        raise DataError(f"parse={parse!r}: choose one of {', '.join(PARSE_MODES)}")
    ensure_tiktoken_cache()
    judge_template = load_template(template or builtin_path(f"judge_{prompt}.txt"))
    judge_template = judge_template.with_labels(LABEL_SETS[labels])
    dataset, facts = uxbench_dataset("task1", data, revision, skip_bad, judge_template, exclude=exclude)
    return Task(
        dataset=dataset,
        solver=generate_answer(),
        scorer=judge_verdict(judge_template, parse),
        config=CONFIG,
        metadata={
            **task_version().metadata(),
            **facts,
            "template": judge_template.source,
            "labels": labels,
            "parse": parse,
        },
        tags=run_tags(CONFIG),
        version=task_version().comparability,
    )
