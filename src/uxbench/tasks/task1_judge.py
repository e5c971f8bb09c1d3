"""Task 1 · UX Judge: predict whether the user liked the reply (docs/protocol.md#task-1-ux-judge)."""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from uxbench.data.dataset import uxbench_dataset
from uxbench.data.shards import shard_dataset
from uxbench.grader_answer.logprobs import constrained
from uxbench.judge_answer.verdict import ParseMode
from uxbench.runtime.listing import task_version
from uxbench.runtime.metric import metric_descriptions
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.runtime.tags import run_tags
from uxbench.scorers.judge_verdict import constraint_choices, judge_metrics, judge_template, judge_verdict
from uxbench.scorers.metrics import gold_acc
from uxbench.tasks.parameters import typed_parameters
from uxbench.tasks.probe import judge_recorded
from uxbench.tasks.solvers import generate_answer
from uxbench.tasks.study import study_dataset

# the paper's Task 1 generation settings (docs/protocol.md#task-1-ux-judge); flags override
CONFIG = GenerateConfig(temperature=0.2, max_tokens=4096)


@task
@typed_parameters
def task1_judge(
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    exclude: str | None = None,
    shard: str | None = None,
    prompt: Literal["default", "user_modeling", "cot", "few_shot"] = "default",
    labels: Literal["binary", "three_class"] = "binary",
    template: str | None = None,
    parse: ParseMode = "careful",
    constrain: bool = False,
) -> Task:
    """UX Judge.

    Args:
        data: hub, sample, a directory holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable records instead of stopping.
        exclude: an exclusion file (JSONL of cid, reason, who, when; `uxbench explore`
            writes it): leave its records out and count them (`excluded_records`).
        shard: K/N runs the K-th of N disjoint shards of the records, chosen by record id
            (docs/scale.md#shards); the report pools the N logs into one row.
        prompt: built-in prompting strategy: default, user_modeling, cot, few_shot.
        labels: binary (good/bad) or three_class (adds a neutral option).
        template: path of your own judge template (overrides `prompt`).
        parse: careful (the template's own rules, then fallbacks a careful reader would use)
            or strict (the template's own rules only).
        constrain: ask the server (vLLM) to answer only one of the template's labels, and
            read P(good) back from its prompt logprobs of the labels, whatever its tokenizer
            does to them (off: the judge answers freely, as in the paper).
    """
    ensure_tiktoken_cache()
    scorer = judge_verdict(template or prompt, labels, parse, constrain)  # checks labels and parse
    judging = judge_template(template or prompt, labels)
    config = constrained(CONFIG, constraint_choices(judging)) if constrain else CONFIG
    dataset, facts = shard_dataset(
        *study_dataset(
            *uxbench_dataset("task1", data, revision, skip_bad, judging, exclude=exclude),
            gold_template=judging,
        ),
        shard,
    )
    # gold items (a person's attention checks) get a metric of their own
    metrics = [*judge_metrics(), gold_acc()] if (facts.get("study") or {}).get("gold") else judge_metrics()
    return Task(
        dataset=dataset,
        solver=generate_answer(),
        scorer=scorer,
        metrics=metrics,
        config=config,
        metadata={
            **task_version().metadata(),
            **judge_recorded(judging).metadata(),
            **facts,
            "template": template or f"judge_{prompt}.txt",  # a built-in by name: no path of this machine
            "labels": labels,
            "parse": parse,
            "metric_descriptions": metric_descriptions(metrics),
            "constrain": constrain,
        },
        tags=run_tags(config),
        version=task_version().comparability,
    )
