"""The start-up heap is frozen once, at the first UXBench task's start, and never for another suite."""

import asyncio
import gc
from types import SimpleNamespace
from typing import Any

import pytest

from uxbench.runtime.heap import FreezeStartupHeap


def start(task: str) -> Any:
    """What the hook reads of Inspect's TaskStart."""
    return SimpleNamespace(spec=SimpleNamespace(task=task))


@pytest.fixture
def freezes(monkeypatch: pytest.MonkeyPatch) -> list[None]:
    calls: list[None] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(None))
    return calls


def test_the_first_uxbench_task_freezes_the_heap_once(freezes: list[None]) -> None:
    hook = FreezeStartupHeap()
    asyncio.run(hook.on_task_start(start("inspect_evals/gsm8k")))
    assert freezes == []  # another suite's run is left as Inspect runs it
    for task in ("uxbench/task2_eval", "uxbench/task1_judge"):
        asyncio.run(hook.on_task_start(start(task)))
    assert len(freezes) == 1  # a notebook's later runs do not freeze their leftovers
