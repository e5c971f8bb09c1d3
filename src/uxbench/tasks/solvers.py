"""Solvers: turn a sample into what the model under test is asked."""

from __future__ import annotations

from pathlib import Path

from inspect_ai.model import ChatMessageSystem, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver
from pydantic import ValidationError

from uxbench.data.templates import builtin_path
from uxbench.grader_answer.reading import unreadable_logprobs
from uxbench.runtime import userfiles
from uxbench.runtime._inspect import building_eval_tasks
from uxbench.runtime.errors import DataError
from uxbench.scorers.grm import GRADER_ROLE, grader_model, missing_grader


def check_grader_bound(self_grade: bool = False) -> None:
    """Stop before the run starts when Inspect builds the task for an eval that binds no grader.

    Only `inspect eval`, `eval()` and `eval_set()` given the task by name build it with the run's
    model roles bound (`runtime/_inspect.py`); a task built before `eval(task, model_roles=...)`
    or by inspect-flow gets its roles later, and `require_grader` checks when a sample starts.
    """
    if not self_grade and building_eval_tasks() and GRADER_ROLE not in model_roles():
        raise missing_grader()


@solver
def require_grader(self_grade: bool = False) -> Solver:
    """Stop before the model under test generates anything when no grader is bound.

    Runs as the task's setup step, first in every sample (and even when `--solver`
    replaces the main solver). Model roles are bound only once the eval runs: `eval(task,
    model_roles=...)`, eval-set and inspect-flow (`FlowTask(model_roles=...)`) bind them after
    the task is built, so a task built outside an eval is not asked for the grader
    (`check_grader_bound` asks earlier where it can).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        grader_model(self_grade)
        return state

    return solve


@solver
def generate_answer() -> Solver:
    """Inspect's `generate()`, except that an answer whose logprobs the provider sent as null
    (which fails Inspect's validation and would end the eval) is asked for again with logprobs
    off: it is then scored without a P(good), like any answer without logprobs."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        try:
            return await generate(state)
        except ValidationError as error:
            if not unreadable_logprobs(error):
                raise
        return await generate(state, logprobs=False)

    return solve


@solver
def add_system_prompt(text: str) -> Solver:
    """Add `text` as a system message after any the conversation already has."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        leading = next((i for i, m in enumerate(state.messages) if m.role != "system"), len(state.messages))
        state.messages.insert(leading, ChatMessageSystem(content=text))
        return state

    return solve


def prompt_text(value: str, builtins: tuple[str, ...], prefix: str, option: str) -> str:
    """Text of a built-in prompt by name (`prompts/{prefix}{name}.txt`) or of the user's file by path."""
    if value in builtins:
        path = builtin_path(f"{prefix}{value}.txt")
    else:
        path = Path(value).expanduser()
        if userfiles.check_path(path, option) is None:
            raise DataError(f"{option}={value!r}: choose one of {', '.join(builtins)} or give a file path")
    text = userfiles.read_text(path, option).strip()
    if not text:
        raise DataError(f"{option}: {path} is empty")
    return text
