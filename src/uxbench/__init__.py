"""UXBench: user-experience benchmark tasks for Inspect AI.

`from uxbench import task1_judge` gives the task functions (Inspect also finds them by name,
`uxbench/task1_judge`): the three benchmark tasks, `grader_check` and the construction
pipeline's agents (`pipeline_miner`, `pipeline_judge`, `pipeline_qa`). Importing the package
stays light: torch, transformers, datasets and matplotlib load only inside the functions that
need them.
"""

__version__ = "0.1.0"

from uxbench.pipeline import pipeline_judge, pipeline_miner, pipeline_qa
from uxbench.runtime import batches  # noqa: F401  -- each batched request ends in its result or its error
from uxbench.scorers import grm
from uxbench.tasks import grader_check, task1_judge, task2_eval, task3_recovery

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
