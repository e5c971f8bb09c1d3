"""Solvers: turn a sample into what the model under test is asked."""

from __future__ import annotations

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from uxbench.templates import Template


@solver
def judge_prompt(template: Template) -> Solver:
    """Ask for a verdict on the sample's reply, rendered through `template` (Task 1)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        prompt = template.render(
            history=template.history_text(meta["history"]),
            query=meta["query"],
            response=meta["response"],
        )
        state.messages = [ChatMessageUser(content=prompt)]
        return await generate(state)

    return solve
