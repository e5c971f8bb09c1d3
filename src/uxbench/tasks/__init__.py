"""The `@task`s users run: thin wiring of dataset, solver and scorer with every knob a typed task
parameter, the solvers they share, and the listing (`eval.yaml`) that versions them.

May import: every lower concern (`runtime`, `stats`, `data`, `grader_prompt`, `grader_answer`,
`judge_answer`, `qualification`, `scorers`, `web`, `providers`); never `report` or `pipeline`.
"""

from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery

__all__ = [
    "grader_check",
    "task1_judge",
    "task2_eval",
    "task3_recovery",
]
