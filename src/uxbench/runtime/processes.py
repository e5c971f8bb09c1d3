"""The shard processes of one `uxbench run`, managed: at most `limit` at once, the rest queued,
each in its own process group, and all of them stopped and waited for when the launcher is.

A process group per shard lets a signal reach the whole shard (Inspect and anything it started)
and nothing else, and lets the launcher, not the terminal, decide what each shard gets: SIGINT,
SIGTERM and SIGHUP to the launcher (Ctrl-C, `timeout`, a scheduler, a closed terminal) each stop
every running shard with SIGINT, the signal Inspect ends a run cleanly on (samples in flight
cancelled, the log written with status `cancelled`, so the next eval-set resumes it); SIGTERM would
end Inspect before it writes. Queued shards are not started. A shard still running `GRACE`
seconds later, or when a second signal arrives, is killed with its group (SIGKILL). When a shard
ends, whatever is left in its group is killed too, so no process outlives the launcher.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

GRACE = 30.0  # seconds a stopped shard gets to write its log before it is killed
POLL = 0.1  # seconds between looks at the running shards
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def inspect_command(args: list[str]) -> list[str]:
    """`inspect ARGS` with this Python (on a Ray node: the node's)."""
    return [sys.executable, "-m", "inspect_ai", *args]


def start(args: list[str]) -> subprocess.Popen[bytes]:
    """One `inspect` process, the leader of its own process group, reading nothing from the
    terminal (a background group that reads it would be stopped)."""
    return subprocess.Popen(inspect_command(args), stdin=subprocess.DEVNULL, process_group=0)


def signal_group(process: subprocess.Popen[bytes], signum: int) -> None:
    """`signum` to the process's group (the group outlives its leader while members remain)."""
    try:
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone


def stop_and_wait(processes: Iterable[subprocess.Popen[bytes]], grace: float | None = None) -> None:
    """SIGINT to each process's group, up to `grace` seconds to end, then SIGKILL; all reaped."""
    processes = list(processes)
    for process in processes:
        signal_group(process, signal.SIGINT)
    deadline = time.monotonic() + (GRACE if grace is None else grace)
    for process in processes:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            signal_group(process, signal.SIGKILL)
            process.wait()
        signal_group(process, signal.SIGKILL)  # what it left behind in its group


def run_inspect(args: list[str]) -> int:
    """One shard's process to its end (a Ray task's body): stopped and waited for when the task is
    cancelled or interrupted."""
    process = start(args)
    try:
        return process.wait()
    except BaseException:
        stop_and_wait([process])
        raise


@dataclass(frozen=True)
class Outcome:
    codes: list[int | None]  # each shard's exit code (negative: the signal that ended it; None: not started)
    signal: int | None  # the signal the launcher was stopped by


@dataclass
class _Stop:
    """The signals the launcher received: the first stops the shards, a second (or the grace
    running out) kills them."""

    signal: int | None = None
    deadline: float = 0.0
    kill: bool = False
    told: set[int] = field(default_factory=set)

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.signal is None:
            self.signal, self.deadline = signum, time.monotonic() + GRACE
        else:
            self.kill = True

    @contextmanager
    def installed(self) -> Iterator[_Stop]:
        """The handlers in place while the shards run (only the main thread can take signals)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {signum: signal.signal(signum, self.handle) for signum in STOP_SIGNALS}
        try:
            yield self
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def enforce(self, running: Iterable[subprocess.Popen[bytes]]) -> None:
        """After a signal: SIGINT once to each running shard; SIGKILL after the grace or a second signal."""
        if self.signal is None:
            return
        for process in running:
            if process.pid not in self.told:
                self.told.add(process.pid)
                signal_group(process, signal.SIGINT)
            if self.kill or time.monotonic() > self.deadline:
                signal_group(process, signal.SIGKILL)


def _announce(stop: _Stop, running: int, queued: int, said: list[bool]) -> None:
    if stop.signal is not None and not said[0]:
        said[0] = True
        name = signal.Signals(stop.signal).name
        print(
            f"{name}: stopping {running} running shard(s) (up to {GRACE:.0f} s to write their logs; a "
            f"second signal kills them at once); {queued} queued shard(s) not started",
            file=sys.stderr,
            flush=True,
        )


@dataclass
class ShardProcesses:
    """Every shard's `inspect` process on this machine, at most `limit` at once."""

    commands: list[list[str]]
    limit: int

    def run(self) -> Outcome:
        codes: list[int | None] = [None] * len(self.commands)
        queue = deque(range(len(self.commands)))
        running: dict[int, subprocess.Popen[bytes]] = {}
        stop, said = _Stop(), [False]
        with stop.installed():
            try:
                while queue or running:
                    while queue and len(running) < self.limit and stop.signal is None:
                        k = queue.popleft()
                        running[k] = start(self.commands[k])
                    _announce(stop, len(running), len(queue), said)
                    if stop.signal is not None:
                        queue.clear()
                    for k, process in list(running.items()):
                        if (code := process.poll()) is not None:
                            codes[k] = code
                            del running[k]
                            signal_group(process, signal.SIGKILL)  # what it left behind in its group
                    stop.enforce(running.values())
                    if running:
                        time.sleep(POLL)
            finally:
                stop_and_wait(running.values())  # only on an error of the launcher's own
        return Outcome(codes, stop.signal)


def run_ray(ray: Any, remote: Any, commands: list[list[str]], limit: int) -> Outcome:
    """Every shard as a Ray task (`remote`, running `run_inspect`), at most `limit` at once; a
    signal cancels them (each task then stops its process as above) and starts no more."""
    codes: list[int | None] = [None] * len(commands)
    queue = deque(range(len(commands)))
    tasks: dict[Any, int] = {}
    stop, said, cancelled = _Stop(), [False], False
    submit: Callable[[list[str]], Any] = remote.remote
    with stop.installed():
        while queue or tasks:
            while queue and len(tasks) < limit and stop.signal is None:
                k = queue.popleft()
                tasks[submit(commands[k])] = k
            _announce(stop, len(tasks), len(queue), said)
            if stop.signal is not None and not cancelled:
                cancelled = True
                queue.clear()
                for task in tasks:
                    ray.cancel(task, force=False)  # a KeyboardInterrupt in run_inspect: it stops its shard
            done, _ = ray.wait(list(tasks), num_returns=1, timeout=POLL) if tasks else ([], [])
            for task in done:
                k = tasks.pop(task)
                try:
                    codes[k] = int(ray.get(task))
                except ray.exceptions.RayError:
                    codes[k] = -(stop.signal or signal.SIGKILL)
    return Outcome(codes, stop.signal)
