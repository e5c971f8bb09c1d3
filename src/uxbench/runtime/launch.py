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
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import click

from uxbench.runtime.docs import install_extra
from uxbench.runtime.errors import DataError
from uxbench.runtime.network import reachable


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


def inspect_command(args: list[str]) -> list[str]:
    """`inspect ARGS` with this Python (on a Ray node: the node's)."""
    return [sys.executable, "-m", "inspect_ai", *args]


def run_inspect(args: list[str]) -> int:
    return subprocess.call(inspect_command(args))


def _check(inspect_args: Sequence[str]) -> None:
    for arg, value in zip(inspect_args, [*inspect_args[1:], ""], strict=True):
        if (arg == "-T" and value.startswith("shard=")) or arg.startswith("-Tshard="):
            raise DataError("-T shard=: uxbench run sets each process's shard; give --shards N")


def _local(commands: list[list[str]]) -> list[int]:
    """Every shard's process at once on this machine; Ctrl-C stops them all."""
    processes = [subprocess.Popen(inspect_command(args)) for args in commands]
    try:
        return [process.wait() for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()


def _ray(address: str, commands: list[list[str]]) -> list[int]:
    """Every shard as a Ray task (one CPU) running its `inspect` process on the cluster."""
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
        return list(ray.get([remote.remote(args) for args in commands]))
    finally:
        ray.shutdown()


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
@click.option("--ray-address", default=None, help="Run each shard as a task on this Ray cluster (or 'auto').")
@click.argument("inspect_args", nargs=-1, type=click.UNPROCESSED)
def run(
    task: str,
    shards: int,
    log_dir: str,
    max_connections: int | None,
    ray_address: str | None,
    inspect_args: tuple[str, ...],
) -> None:
    """Run TASK as N shard processes at once (run it again to resume).

    Arguments after TASK go to each `inspect eval-set` (--model, -T, --model-role, …), e.g.

        uxbench run uxbench/task2_eval --shards 2 --max-connections 100 --log-dir logs \\
            --model openai/gpt-4o-mini --model-role grader=openai/gpt-4o
    """
    _check(inspect_args)
    connections = shard_connections(max_connections, shards)
    commands = [
        shard_args(task, k, shards, log_dir, connections[k - 1], inspect_args) for k in range(1, shards + 1)
    ]
    codes = _ray(ray_address, commands) if ray_address else _local(commands)
    failed = [k for k, code in enumerate(codes, start=1) if code != 0]
    for k, code in enumerate(codes, start=1):
        state = "done" if code == 0 else f"not complete (exit code {code})"
        click.echo(f"shard {k}/{shards}: {state}: {shard_dir(log_dir, k, shards)}", err=True)
    if failed:
        raise DataError(
            f"{len(failed)} of {shards} shards did not complete; run the same command again to resume"
        )
    click.echo(f"uxbench report {log_dir}  pools the {shards} shard logs into one row", err=True)
