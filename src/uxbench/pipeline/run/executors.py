"""Where the chunks of an agent stage run: in this process, in local worker processes, or as
tasks on a Ray cluster. Each gives back a `concurrent.futures.Future` per chunk, so one
scheduler (`agentrun.run_chunks`) drives them all.

A worker that dies (killed, out of memory, a crash in native code) shows up as an error
`crashed` recognises; the scheduler then runs the chunk again, and the chunk resumes from
its own log. A chunk runs in one worker process at a time, so no log is written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any

from uxbench.pipeline.run.parallel import pool, stop
from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError
from uxbench.runtime.network import reachable

Work = Callable[[Any], Any]
GRACE = 10.0  # seconds the chunks in flight get to end after an interrupt


class Executor:
    """Runs one chunk after the other in this process (the model may be any Inspect model)."""

    capacity = 1  # chunks in flight at once
    remote = False  # whether the work and its model are sent to other processes

    def submit(self, work: Work, job: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(work(job))  # an error is raised here, as in a plain call
        return future

    def crashed(self, error: BaseException) -> bool:
        """Whether `error` says the worker process died (rather than the work failing)."""
        return False

    def cause(self, error: BaseException) -> BaseException:
        """The error the work raised, as the engine reports it."""
        return error

    def close(self, interrupted: bool = False) -> None:
        """Release the workers; `interrupted`: the run was stopped (Ctrl-C, SIGTERM, an error)
        and must end in bounded time."""
        return None

    def __enter__(self) -> Executor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close(interrupted=kind is not None)


class LocalWorkers(Executor):
    """`workers` processes on this machine, each its own one-process pool, so that a process
    that dies takes down only the chunk it was running (the pool is then replaced)."""

    remote = True

    def __init__(self, workers: int) -> None:
        self.capacity = workers
        self._pools: list[ProcessPoolExecutor | None] = [None] * workers
        self._running: dict[Future[Any], int] = {}

    def submit(self, work: Work, job: Any) -> Future[Any]:
        for future, slot in list(self._running.items()):
            if future.done():
                del self._running[future]
                if future.exception() is not None and self.crashed(future.exception()):  # type: ignore[arg-type]
                    self._discard(slot)
        slot = next(i for i in range(self.capacity) if i not in self._running.values())
        if self._pools[slot] is None:
            self._pools[slot] = pool(1)
        future = self._pools[slot].submit(work, job)  # type: ignore[union-attr]
        self._running[future] = slot
        return future

    def crashed(self, error: BaseException) -> bool:
        return isinstance(error, BrokenProcessPool)

    def _discard(self, slot: int) -> None:
        pool, self._pools[slot] = self._pools[slot], None
        if pool is not None:
            stop(pool)

    def close(self, interrupted: bool = False) -> None:
        """Interrupted: the chunks in flight get GRACE seconds to end their evals (a Ctrl-C
        reaches the workers too, and Inspect writes their logs), then the workers are killed;
        another Ctrl-C meanwhile kills them at once."""
        try:
            if interrupted and self._running:
                wait(list(self._running), timeout=GRACE)
        finally:
            for slot in range(self.capacity):
                self._discard(slot)


def _call(work: Work, job: Any) -> Any:
    return work(job)


class RayTasks(Executor):
    """Chunks as Ray tasks (one CPU each) on an existing Ray cluster; this process is the driver.

    Every node needs uxbench installed and must reach the run directory (a shared path or an
    fsspec URL such as s3://...) and the model's endpoint; at most `workers` chunks (default:
    the cluster's CPUs) are in flight.
    """

    remote = True

    def __init__(self, address: str | None, workers: int | None) -> None:
        try:
            import ray
        except ImportError:
            raise DataError(f"--executor ray needs Ray: {install_extra('ray')}") from None
        self._ray = ray
        self._connected = not ray.is_initialized()
        if self._connected:
            address = address or "auto"
            reachable(address)
            try:
                ray.init(address=address, logging_level="warning", log_to_driver=False)
            except (ConnectionError, ValueError, RuntimeError) as error:
                raise DataError(f"Ray cluster {address}: cannot connect ({error})") from None
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.capacity = max(1, min(workers, cpus) if workers else cpus)
        self._task = ray.remote(num_cpus=1, max_retries=0)(_call)

    def submit(self, work: Work, job: Any) -> Future[Any]:
        future: Future[Any] = self._task.remote(work, job).future()
        return future

    def crashed(self, error: BaseException) -> bool:
        exceptions = self._ray.exceptions
        dead = (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.LocalRayletDiedError)
        return isinstance(error, dead)

    def cause(self, error: BaseException) -> BaseException:
        inner = getattr(error, "cause", None)
        return inner if isinstance(inner, BaseException) else error

    def close(self, interrupted: bool = False) -> None:
        if self._connected:
            self._ray.shutdown()
            self._connected = False


def make_executor(kind: str, workers: int, ray_address: str | None = None) -> Executor:
    """`local` with 1 worker: this process; `local` with more: worker processes; `ray`: Ray tasks."""
    if kind == "ray":
        return RayTasks(ray_address, workers or None)
    if kind != "local":
        raise DataError(f"--executor {kind!r}: use local or ray")
    return LocalWorkers(workers) if workers > 1 else Executor()
