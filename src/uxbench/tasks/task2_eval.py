"""Task 2 · UX Eval: answer the user's query after the prior turns, graded by the GRM (PROTOCOL §3, §5)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver, generate

from uxbench.dataset import uxbench_dataset
from uxbench.offline import ensure_tiktoken_cache
from uxbench.scorers.grm import check_grader, grm
from uxbench.solvers import add_system_prompt, prompt_text, require_grader

SYSTEM_PROMPTS = ("none", "helpful", "ux", "empathetic")


@task
def task2_eval(
    data: str = "hub",
    revision: str | None = None,
    skip_bad: bool = False,
    system_prompt: str = "none",
    grader_template: str | None = None,
    self_grade: bool = False,
) -> Task:
    """UX Eval.

    Args:
        data: hub, sample, a directory holding the release files, or one .jsonl file.
        revision: hub commit or tag to pin the dataset to.
        skip_bad: skip (and count) unusable records instead of stopping.
        system_prompt: none, helpful, ux, empathetic, or the path of your own system prompt.
        grader_template: path of your own GRM prompt template (default: ours, 好/差).
        self_grade: grade with the model under test when no grader role is bound (biased).
    """
    check_grader(self_grade)
    ensure_tiktoken_cache()
    solver: list[Solver] = []
    if system_prompt != "none":
        solver.append(
            add_system_prompt(prompt_text(system_prompt, SYSTEM_PROMPTS, "system_", "system_prompt"))
        )
    dataset, facts = uxbench_dataset("task2", data, revision, skip_bad)
    return Task(
        dataset=dataset,
        setup=require_grader(self_grade),
        solver=[*solver, generate()],
        scorer=grm(template=grader_template, ladder="eval", self_grade=self_grade),
        config=GenerateConfig(temperature=0.7, max_tokens=2048),
        metadata={**facts, "system_prompt": system_prompt, "grader_template": grader_template},
        version="1.0.0",
    )
