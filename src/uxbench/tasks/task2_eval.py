"""Task 2 · UX Eval: answer the user's query after the prior turns, graded by the GRM.

See docs/protocol.md#task-2-ux-eval and #grm-scoring.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from uxbench.data.dataset import uxbench_dataset
from uxbench.data.shards import shard_dataset
from uxbench.runtime.listing import task_version
from uxbench.runtime.metric import metric_descriptions
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.runtime.tags import run_tags
from uxbench.scorers.grm import grm, grm_metrics
from uxbench.tasks.parameters import typed_parameters
from uxbench.tasks.probe import grader_recorded
from uxbench.tasks.solvers import add_system_prompt, check_grader_bound, prompt_text, require_grader
from uxbench.tasks.study import study_dataset

SYSTEM_PROMPTS = ("none", "helpful", "ux", "empathetic")


@solver
def drop_history() -> Solver:
    """Show the model only the system turns and the user's last message; the grader still sees it all."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        last_user = max((i for i, m in enumerate(state.messages) if m.role == "user"), default=None)
        state.messages = [m for i, m in enumerate(state.messages) if m.role == "system" or i == last_user]
        return state

    return solve


CONFIG = GenerateConfig(temperature=0.7, max_tokens=2048)  # the paper's generation settings; flags override


@task
@typed_parameters
def task2_eval(
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    exclude: str | None = None,
    shard: str | None = None,
    system_prompt: str = "none",
    grader_template: str | None = None,
    self_grade: bool = False,
    history: Literal["keep", "drop"] = "keep",
    grader_constrain: bool = False,
) -> Task:
    """UX Eval.

    Args:
        data: hub, sample, a directory holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable records instead of stopping.
        exclude: an exclusion file (JSONL of cid, reason, who, when; `uxbench explore`
            writes it): leave its records out and count them (`excluded_records`).
        shard: K/N runs the K-th of N disjoint shards of the records, chosen by record id
            (docs/scale.md#shards); the report pools the N logs into one row.
        system_prompt: none, helpful, ux, empathetic, or the path of your own system prompt.
        grader_template: path of your own GRM prompt template (default: ours, 好/差).
        self_grade: grade with the model under test when no grader role is bound (biased).
        history: keep (the model sees the prior turns) or drop (only the query; the grader
            still sees the whole conversation), to measure how much the prior turns matter.
        grader_constrain: ask the grader's server (vLLM) to answer only 好 or 差 and read P(good)
            back from its prompt logprobs, so any open model is a well-formed grader (off: the
            grader is asked as the paper asks UXBench-GRM).
    """
    check_grader_bound(self_grade)
    ensure_tiktoken_cache()
    solver: list[Solver] = [drop_history()] if history == "drop" else []
    system = None
    if system_prompt != "none":
        system = prompt_text(system_prompt, SYSTEM_PROMPTS, "system_", "system_prompt")
        solver.append(add_system_prompt(system))
    metrics = grm_metrics()
    dataset, facts = shard_dataset(
        *study_dataset(*uxbench_dataset("task2", data, revision, skip_bad, exclude=exclude)), shard
    )
    return Task(
        dataset=dataset,
        setup=require_grader(self_grade),
        solver=[*solver, generate()],
        scorer=grm(
            template=grader_template, ladder="eval", self_grade=self_grade, constrain=grader_constrain
        ),
        metrics=metrics,
        config=CONFIG,
        metadata={
            **task_version().metadata(),
            **grader_recorded(grader_template, system_prompt=system).metadata(),
            **facts,
            "system_prompt": system_prompt,
            "grader_template": grader_template,
            "history": history,
            "metric_descriptions": metric_descriptions(metrics),
            "grader_constrain": grader_constrain,
        },
        tags=run_tags(CONFIG, graded=True, self_grade=self_grade),
        version=task_version().comparability,
    )
