"""Worker processes for the pipeline's CPU-bound steps, from `concurrent.futures`.

Agent-stage workers (`pool`) are spawned — a fresh interpreter, nothing inherited from the
threads of the main process — and on Linux ask the kernel to kill them when the process that
started them dies, so a run killed with SIGKILL leaves no worker writing to its logs while it
is resumed. They start in about two seconds (importing Inspect), once per run.

`ordered_map` is for the deterministic stages: batches go to the workers with a bounded
number in flight (so memory stays flat however long the input) and come back in input
order, so the output is the same as one process's. Its workers fork from a fork server that
has imported the stages once (Python's `forkserver`), so they start in milliseconds; one left
behind by a killed run finishes its batch and exits, having written nothing.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from multiprocessing.context import BaseContext
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
_PR_SET_PDEATHSIG = 1
_PRELOAD = ["uxbench.pipeline.run.drivers"]


def default_workers() -> int:
    """The number of cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _die_with_parent() -> None:
    """In a worker: SIGKILL when the parent dies (Linux prctl; elsewhere nothing)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before the request was made
            os._exit(1)


def stop(executor: ProcessPoolExecutor) -> None:
    """End a pool now: its workers killed, its queued work cancelled, nothing waited for. A
    pool shut down the usual way makes the interpreter wait at exit for its workers, however
    many Ctrl-C follow; a killed worker's chunk resumes from its log next run."""
    kill = getattr(executor, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
    else:
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            if process.is_alive():
                process.kill()
    executor.shutdown(wait=False, cancel_futures=True)


def pool(workers: int) -> ProcessPoolExecutor:
    context: BaseContext = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_die_with_parent)


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def ordered_map(
    function: Callable[[list[T]], R], batches: Iterable[list[T]], workers: int
) -> Iterator[tuple[list[T], R]]:
    """(batch, function(batch)) in input order, computed by `workers` processes (here when 1)."""
    if workers <= 1:
        for batch in batches:
            yield batch, function(batch)
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        in_flight: deque[tuple[list[T], Future[Any]]] = deque()
        for batch in batches:
            in_flight.append((batch, executor.submit(function, batch)))
            if len(in_flight) >= 2 * workers:
                done, future = in_flight.popleft()
                yield done, future.result()
        while in_flight:
            done, future = in_flight.popleft()
            yield done, future.result()
    except BaseException:  # an interrupt or an error: the batches in flight are not wanted
        stop(executor)
        raise
    executor.shutdown()
