"""UXBench: user-experience benchmark tasks for Inspect AI.

`from uxbench import task1_judge` gives the task functions (Inspect also finds them by name,
`uxbench/task1_judge`): the three benchmark tasks, `grader_check` and the construction
pipeline's agents (`pipeline_miner`, `pipeline_judge`, `pipeline_qa`).

`import uxbench` loads nothing else: each name is imported when it is first used (PEP 562), so
the `uxbench` command line — `uxbench run` above all, which only starts `inspect` processes —
does not pay for Inspect and every task before it does its work (bench/results_shards.md).
Inspect's entry point (`uxbench._registry`) imports the tasks for Inspect.
"""

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_HOME = {
    "grader_check": "uxbench.tasks",
    "grm": "uxbench.scorers",
    "pipeline_judge": "uxbench.pipeline",
    "pipeline_miner": "uxbench.pipeline",
    "pipeline_qa": "uxbench.pipeline",
    "task1_judge": "uxbench.tasks",
    "task2_eval": "uxbench.tasks",
    "task3_recovery": "uxbench.tasks",
}

# written out (not derived from _HOME): inspect_evals' linter reads the exported tasks from it
__all__ = [
    "__version__",
    "grader_check",
    "grm",
    "pipeline_judge",
    "pipeline_miner",
    "pipeline_qa",
    "task1_judge",
    "task2_eval",
    "task3_recovery",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'uxbench' has no attribute {name!r}")
    value = getattr(import_module(_HOME[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
