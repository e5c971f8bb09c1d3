"""Say so when `--epochs-reducer` is given to a UXBench task: its metrics do not apply it.

Every UXBench metric reads each epoch's own score (`scores="unreduced"`, scorers/metrics.py):
the rates pool the epochs, which equals Inspect's default `mean` reduction, and the
agreement and calibration metrics count each epoch as one observation. A reducer such as
`mode` (majority vote) would give other numbers, and Inspect applies reducers only to the
metrics that read reduced scores, so without this warning the flag is silently ignored.
The per-sample reduced scores in the log still follow the reducer.
"""

from __future__ import annotations

import logging

from inspect_ai.hooks import Hooks, TaskStart, hooks

from uxbench.runtime.docs import docs_url

logger = logging.getLogger(__name__)

# the tasks whose metrics all read unreduced scores
UNREDUCED_TASKS = ("task1_judge", "task2_eval", "task3_recovery", "grader_check")


def reducer_warning(task: str, reducer: list[str] | None) -> str | None:
    """The warning for a run of `task` with `--epochs-reducer`, or None when there is nothing to say."""
    if not reducer or reducer == ["mean"] or task.removeprefix("uxbench/") not in UNREDUCED_TASKS:
        return None
    return (
        f"{task}: --epochs-reducer {','.join(reducer)} does not change its metrics: they pool every "
        f"epoch's own score (the mean over epochs; {docs_url('protocol.md#epochs')}). Only the per-sample "
        "reduced scores in the log follow the reducer."
    )


@hooks(name="epochs_reducer", description="Warns that UXBench's metrics pool epochs.")
class EpochsReducerWarning(Hooks):
    async def on_task_start(self, data: TaskStart) -> None:
        if data.spec.task.startswith("uxbench/"):
            message = reducer_warning(data.spec.task, data.spec.config.epochs_reducer)
            if message:
                logger.warning(message)
