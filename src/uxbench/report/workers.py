"""The report's CPU-bound work — parsing log headers and samples, drawing charts — spread
over up to two worker processes (pydantic parsing and matplotlib hold the GIL, so threads
would stay on one core). With 81 full-size logs this is what keeps the report within a
minute on a two-core machine (bench/results_report.md).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
WORKERS = min(2, os.cpu_count() or 1)


def pmap(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """`[function(item) for item in items]`, in worker processes when there is more than one
    item and more than one core. `function` must be a module-level function."""
    if len(items) < 2 or WORKERS < 2:
        return [function(item) for item in items]
    # fork: the workers start at once, with the parent's imports and caches (fonts)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    chunk = max(1, len(items) // (8 * WORKERS))
    with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context(method)) as pool:
        return list(pool.map(function, items, chunksize=chunk))
