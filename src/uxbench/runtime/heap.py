"""Keep Python's garbage collector off the objects a UXBench process starts with.

An Inspect process imports several hundred thousand long-lived objects before its first
sample (Inspect, the provider SDKs, every installed plugin's registry: `inspect_evals` alone
adds about 150,000), and the cyclic collector walks all of them on each full collection while
the samples run. On Task 2 that was about a fifth of the process's CPU (bench/results_shards.md).
At the first UXBench task's start they are moved to the permanent generation (`gc.freeze()`,
the standard library's tool for this): they are still freed when their last reference goes,
only no longer scanned for cycles. Once per process, so a notebook that runs many evals does
not freeze each run's leftovers.
"""

from __future__ import annotations

import gc

from inspect_ai.hooks import Hooks, TaskStart, hooks

from uxbench.runtime.hooks import TASK_PREFIX


@hooks(name="freeze_startup_heap", description="Spares UXBench runs' start-up objects the cyclic GC.")
class FreezeStartupHeap(Hooks):
    def __init__(self) -> None:
        self.frozen = False

    async def on_task_start(self, data: TaskStart) -> None:
        if not self.frozen and data.spec.task.startswith(TASK_PREFIX):
            gc.freeze()
            self.frozen = True
