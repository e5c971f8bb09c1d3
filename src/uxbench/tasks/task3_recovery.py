"""Task 3 · UX Recovery: repair a reply the user complained about, graded by the GRM.

See docs/protocol.md#task-3-ux-recovery and #grm-scoring.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver, generate

from uxbench.data.dataset import uxbench_dataset
from uxbench.data.shards import shard_dataset
from uxbench.runtime.listing import task_version
from uxbench.runtime.metric import metric_descriptions
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.runtime.tags import run_tags
from uxbench.scorers.grm import grm, grm_metrics
from uxbench.scorers.metrics import recovery_rate
from uxbench.tasks.parameters import typed_parameters
from uxbench.tasks.probe import grader_recorded
from uxbench.tasks.solvers import add_system_prompt, check_grader_bound, prompt_text, require_grader
from uxbench.tasks.study import study_dataset

STRATEGIES = ("normal", "cot", "failure_aware", "critique")
# Strategies that make the model reason first; the repair follows this marker (the prompts say so).
REPAIR_MARKER = "【最终回复】"
REASONING_STRATEGIES = ("cot", "critique")
# paper: the grader sees only the failed reply as context (docs/protocol.md#task-3-ux-recovery);
# full: the whole history too.
GRM_CONTEXT_TURNS = {"paper": 1, "full": None}

CONFIG = GenerateConfig(temperature=0.7, max_tokens=2048)  # the paper's generation settings; flags override


@task
@typed_parameters
def task3_recovery(
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    exclude: str | None = None,
    shard: str | None = None,
    strategy: Literal["normal", "cot", "failure_aware", "critique"] = "normal",
    grm_context: Literal["paper", "full"] = "paper",
    baseline: bool = False,
    grader_template: str | None = None,
    self_grade: bool = False,
    grader_constrain: bool = False,
) -> Task:
    """UX Recovery.

    Args:
        data: hub, sample, a directory holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable records instead of stopping.
        exclude: an exclusion file (JSONL of cid, reason, who, when; `uxbench explore`
            writes it): leave its records out and count them (`excluded_records`).
        shard: K/N runs the K-th of N disjoint shards of the records, chosen by record id
            (docs/scale.md#shards); the report pools the N logs into one row.
        strategy: normal, cot, failure_aware or critique; cot and critique reason first,
            and only the repair after the final marker is graded.
        grm_context: paper (the grader sees the failed reply and the complaint) or full
            (the whole history as well).
        baseline: also grade the failed reply and report delta_score.
        grader_template: path of your own GRM prompt template (default: ours, 好/差).
        self_grade: grade with the model under test when no grader role is bound (biased).
        grader_constrain: ask the grader's server (vLLM) to answer only 好 or 差 and read P(good)
            back from its prompt logprobs, so any open model is a well-formed grader (off: the
            grader is asked as the paper asks UXBench-GRM).
    """
    check_grader_bound(self_grade)
    ensure_tiktoken_cache()
    solver: list[Solver] = []
    instructions = None
    if strategy != "normal":
        instructions = prompt_text(strategy, STRATEGIES, "recovery_", "strategy")
        solver.append(add_system_prompt(instructions))
    metrics = grm_metrics(recovery_rate(), baseline=baseline)
    dataset, facts = shard_dataset(
        *study_dataset(*uxbench_dataset("task3", data, revision, skip_bad, exclude=exclude)), shard
    )
    return Task(
        dataset=dataset,
        setup=require_grader(self_grade),
        solver=[*solver, generate()],
        scorer=grm(
            template=grader_template,
            ladder="recovery",
            context_turns=GRM_CONTEXT_TURNS[grm_context],
            answer_marker=REPAIR_MARKER if strategy in REASONING_STRATEGIES else None,
            baseline=baseline,
            self_grade=self_grade,
            constrain=grader_constrain,
        ),
        metrics=metrics,
        config=CONFIG,
        metadata={
            **task_version().metadata(),
            **grader_recorded(grader_template, strategy=instructions).metadata(),
            **facts,
            "strategy": strategy,
            "grm_context": grm_context,
            "grader_template": grader_template,
            "metric_descriptions": metric_descriptions(metrics),
            "grader_constrain": grader_constrain,
        },
        tags=run_tags(CONFIG, graded=True, self_grade=self_grade),
        version=task_version().comparability,
    )
