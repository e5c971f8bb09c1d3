"""`uxbench run`: one run split over N processes (`-T shard=K/N`), on this machine or a Ray cluster.

One Inspect process uses one core; a fast endpoint then waits on it (docs/scale.md#shards).
Each shard is one `inspect eval-set` process writing to its own log directory,
LOG_DIR/shard-K-of-N, so running the same command again resumes shard by shard: a finished shard
is left as it is, an interrupted or failed one is retried from its log (eval-set's eval-retry,
which keeps the samples already done). `--max-connections` is divided among the shards, so
together they put the same load on the endpoint as one process would. With `--ray-address`
each shard is a Ray task (one CPU) running its process on the cluster; LOG_DIR must then be
one every node reaches (a shared path, or an fsspec location such as s3://bucket/logs).
`uxbench report LOG_DIR` pools the shard logs into one row (docs/report.md#shards).

The launcher owns its processes (`processes.py`): at most `--max-procs` at
once, each in its own process group; SIGINT, SIGTERM and SIGHUP stop them all and are waited
for, so no shard outlives the launcher. One launcher per local log directory (a `filelock`
lock), so two never run the same records twice.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError
from uxbench.runtime.identity import Identity, IdentityError, Recorded
from uxbench.runtime.listing import task_version
from uxbench.runtime.network import reachable
from uxbench.runtime.processes import Outcome, ShardProcesses, run_inspect, run_ray

LOCK_NAME = ".uxbench-run.lock"
SHARD_MEMORY = 450 * 2**20  # a shard's Inspect process holds about 410 MB (issue 44); with some room
# options the launcher sets for each shard itself
_OWN = {"--log-dir": "--log-dir", "--max-connections": "--max-connections"}


def shard_connections(total: int | None, shards: int) -> list[int | None]:
    """`total` connections divided among the shards (the first ones get the remainder; each at
    least 1); None each when no total is given (Inspect's default per process)."""
    if total is None:
        return [None] * shards
    base, extra = divmod(total, shards)
    return [max(1, base + (k < extra)) for k in range(shards)]


def shard_args(
    task: str, shard: int, shards: int, log_dir: str, connections: int | None, inspect_args: Sequence[str]
) -> list[str]:
    """The `inspect` arguments of shard `shard` of `shards`."""
    args = ["eval-set", task, "-T", f"shard={shard}/{shards}", "--log-dir", shard_dir(log_dir, shard, shards)]
    if connections is not None:
        args += ["--max-connections", str(connections)]
    if not any(a == "--display" or a.startswith("--display=") for a in inspect_args):
        args += ["--display", "none"]  # N progress displays on one terminal garble each other
    return args + list(inspect_args)


def shard_dir(log_dir: str, shard: int, shards: int) -> str:
    return f"{log_dir.rstrip('/')}/shard-{shard}-of-{shards}"


def default_max_procs() -> int:
    """The cores this process may use, fewer when the free memory holds fewer shard processes."""
    import psutil

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, psutil.virtual_memory().available // SHARD_MEMORY))


def _model_given(inspect_args: Sequence[str]) -> bool:
    """A model for the shards: `--model`, or INSPECT_EVAL_MODEL in the environment or in the `.env`
    file Inspect reads (python-dotenv's search, as Inspect's)."""
    if any(arg == "--model" or arg.startswith("--model=") for arg in inspect_args):
        return True
    if os.environ.get("INSPECT_EVAL_MODEL"):
        return True
    from dotenv import dotenv_values, find_dotenv

    found = find_dotenv(usecwd=True)
    return bool(found and dotenv_values(found).get("INSPECT_EVAL_MODEL"))


def check_args(inspect_args: Sequence[str]) -> None:
    """Refuse Inspect arguments the launcher sets for each shard itself, and a run without a
    model (each shard would fail on its own, before writing a log); any list, empty too."""
    for k, arg in enumerate(inspect_args):
        value = inspect_args[k + 1] if k + 1 < len(inspect_args) else ""
        if (arg == "-T" and value.startswith("shard=")) or arg.startswith("-Tshard="):
            raise DataError("-T shard=: uxbench run sets each process's shard; give --shards N")
        for own in _OWN:
            if arg == own or arg.startswith(own + "="):
                raise DataError(f"{own}: give it once, as uxbench run's own option (it sets each shard's)")
    if not _model_given(inspect_args):
        raise DataError("no model: give --model MODEL after the task, or set INSPECT_EVAL_MODEL")


def _local_dir(log_dir: str) -> Path | None:
    """The log directory on this machine, or None for an fsspec location (s3://…)."""
    if "://" in log_dir and not log_dir.startswith("file://"):
        return None
    return Path(log_dir.removeprefix("file://")).expanduser()


def prepare_log_dir(log_dir: str, shards: int) -> Path | None:
    """The local log directory, made and checked writable (one line when it cannot be); None when
    it is remote (Inspect writes it through fsspec, and no lock is taken)."""
    if not log_dir.strip():
        raise DataError("--log-dir is empty: give a directory (or an fsspec location such as s3://…)")
    path = _local_dir(log_dir)
    if path is None:
        return None
    for place in (path, *(Path(shard_dir(str(path), k, shards)) for k in range(1, shards + 1))):
        if place.exists() and not place.is_dir():
            raise DataError(f"--log-dir {log_dir}: {place} is a file, not a directory; give another one")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DataError(f"--log-dir {log_dir}: cannot be made ({error.strerror or error})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise DataError(f"--log-dir {log_dir}: not writable by this user; give another --log-dir")
    return path


def lock(path: Path) -> Any:
    """The log directory's lock (a `filelock.FileLock`), held: another launcher on it is refused
    at once (not queued)."""
    from filelock import FileLock, Timeout

    held = FileLock(path / LOCK_NAME, timeout=0)
    try:
        held.acquire()
    except Timeout:
        raise DataError(
            f"--log-dir {path}: another uxbench run is using it (lock {path / LOCK_NAME}); wait for it "
            "to end, or give another --log-dir"
        ) from None
    except OSError as error:
        raise DataError(f"--log-dir {path}: cannot lock it ({error.strerror or error})") from None
    return held


def _earlier_logs(log_dir: str, shards: int) -> list[tuple[str, dict[str, Any]]]:
    """The logs already in the shard directories (what eval-set keeps or resumes), by shard and
    file name, with their eval metadata; unreadable ones are eval-set's to report. A local log
    directory without shard directories (a first run) holds none: Inspect is not imported for it."""
    local = _local_dir(log_dir)
    if local is not None and not any(
        Path(shard_dir(str(local), k, shards)).is_dir() for k in range(1, shards + 1)
    ):
        return []
    from inspect_ai.log import list_eval_logs, read_eval_log

    found = []
    for k in range(1, shards + 1):
        try:
            infos = list_eval_logs(shard_dir(log_dir, k, shards))
        except Exception:  # a directory not made yet, a store out of reach
            continue
        for info in infos:
            try:
                header = read_eval_log(info.name, header_only=True)
            except Exception:
                continue
            found.append((f"shard {k}/{shards} ({Path(info.name).name})", header.eval.metadata or {}))
    return found


def check_resume(log_dir: str, shards: int, task: str) -> list[str]:
    """Why resuming in `log_dir` would mix two experiments in one run (each difference named):
    a log there of another task version than this uxbench's (eval-set would finish it with this
    version's prompts), or logs whose recorded identities differ (runtime/identity.py)."""
    current = task_version().full
    problems: list[str] = []
    first: tuple[str, Identity] | None = None
    for where, metadata in _earlier_logs(log_dir, shards):
        version = metadata.get("full_task_version")
        if version is not None and version != current:
            problems.append(f"{where}: task version {version}, while this uxbench runs {current}")
        try:
            identity = Identity(task, version, {}, Recorded.read(metadata, where))
        except IdentityError as error:
            problems.append(str(error))
            continue
        if first is None:
            first = (where, identity)
        elif found := first[1].differences(identity):
            differing = [d for d in found if not d.startswith("task version")]
            if differing:
                problems.append(f"{where}: {'; '.join(differing)} (against {first[0]})")
    return problems


def _ray(address: str, commands: list[list[str]], max_procs: int) -> Outcome:
    """Every shard as a Ray task (one CPU) running its `inspect` process on the cluster, at most
    `max_procs` at once; a signal cancels the tasks (each stops its process as a signal does)."""
    try:
        import ray
    except ImportError:
        raise DataError(f"--ray-address needs Ray: {install_extra('ray')}") from None
    reachable(address)
    try:
        ray.init(address=address, logging_level="warning")
    except (ConnectionError, ValueError, RuntimeError) as error:
        raise DataError(f"Ray cluster {address}: cannot connect ({error})") from None
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(run_inspect)
        return run_ray(ray, remote, commands, max_procs)
    finally:
        ray.shutdown()


def _wrote_log(directory: str) -> bool:
    from inspect_ai.log import list_eval_logs

    try:
        return bool(list_eval_logs(directory))
    except Exception:  # a directory never made, a remote store out of reach: no log to resume from
        return False


def _state(code: int | None, directory: str) -> str:
    if code == 0:
        return "done"
    if code is not None and code > 0 and not _wrote_log(directory):
        return f"failed before writing a log (exit code {code}; its error is above)"
    if code is None:
        return "not started"
    if code < 0:
        return f"not complete (stopped by {signal.Signals(-code).name})"
    return f"not complete (exit code {code})"


@click.command(name="run", context_settings={"ignore_unknown_options": True})
@click.argument("task")
@click.option("--shards", type=click.IntRange(1), required=True, help="Processes to split the records over.")
@click.option("--log-dir", required=True, help="Where the logs go: LOG_DIR/shard-K-of-N (a path or s3://…).")
@click.option(
    "--max-connections",
    type=click.IntRange(1),
    default=None,
    help="Connections to the model for the whole run, divided among the shards.",
)
@click.option(
    "--max-procs",
    type=click.IntRange(1),
    default=None,
    help="Shard processes at once, the rest queued [default: the cores, fewer if memory is short].",
)
@click.option("--ray-address", default=None, help="Run each shard as a task on this Ray cluster (or 'auto').")
@click.option("--force", is_flag=True, help="Resume even when the logs there are of another experiment.")
@click.argument("inspect_args", nargs=-1, type=click.UNPROCESSED)
def run(
    task: str,
    shards: int,
    log_dir: str,
    max_connections: int | None,
    max_procs: int | None,
    ray_address: str | None,
    force: bool,
    inspect_args: tuple[str, ...],
) -> int:
    """Run TASK as N shard processes; run it again to resume.

    At most --max-procs shard processes run at once, the rest queued.

    Arguments after TASK go to each `inspect eval-set` (--model, -T, --model-role, …), e.g.

        uxbench run uxbench/task2_eval --shards 2 --max-connections 100 --log-dir logs \\
            --model openai/gpt-4o-mini --model-role grader=openai/gpt-4o

    Exit codes: 0 every shard done, 1 some not complete, 130 / 143 / 129 stopped by SIGINT
    (Ctrl-C) / SIGTERM / SIGHUP (each shard is stopped and waited for first).
    """
    check_args(inspect_args)
    local = prepare_log_dir(log_dir, shards)
    held = lock(local) if local is not None else None
    try:
        problems = check_resume(log_dir, shards, task)
        if problems and not force:
            listing = "\n".join(f"  {problem}" for problem in problems)
            raise DataError(
                f"{log_dir} holds logs of another experiment; resuming would mix them in one run:\n"
                f"{listing}\nUse another --log-dir, or pass --force to go on with these logs."
            )
        connections = shard_connections(max_connections, shards)
        commands = [
            shard_args(task, k, shards, log_dir, connections[k - 1], inspect_args)
            for k in range(1, shards + 1)
        ]
        limit = max_procs or default_max_procs()
        outcome = _ray(ray_address, commands, limit) if ray_address else ShardProcesses(commands, limit).run()
    finally:
        if held is not None:
            held.release()
    states = [_state(code, shard_dir(log_dir, k, shards)) for k, code in enumerate(outcome.codes, start=1)]
    for k, state in enumerate(states, start=1):
        click.echo(f"shard {k}/{shards}: {state}: {shard_dir(log_dir, k, shards)}", err=True)
    if outcome.signal is not None:
        name = signal.Signals(outcome.signal).name
        resume = "finished work is kept: run the same command again to resume"
        click.echo(f"stopped by {name}; {resume}", err=True)
        return 128 + outcome.signal
    failed = [state for state in states if state != "done"]
    if failed:
        early = sum(state.startswith("failed before") for state in failed)
        hint = (
            "fix the cause shown above, then run the same command again"
            if early == len(failed)
            else "run the same command again to resume"
        )
        click.echo(f"Error: {len(failed)} of {shards} shards did not complete; {hint}", err=True)
        return 1
    click.echo(f"uxbench report {log_dir}  pools the {shards} shard logs into one row", err=True)
    return 0
