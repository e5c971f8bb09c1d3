"""CPU per model call of a setting UXBench adds to every run: the redaction hook's log filter.

    python bench/filter_cost.py --records 300

The profile of a sharded Task 2 run charged ≈ 2 % of its CPU to `RedactingFilter.filter`
(uxbench/runtime/hooks.py), which sees every log record Inspect emits while a UXBench task
runs. This runs Task 2 in this process against bench/loadserver.py (model and grader) with the
filter's `filter` timed, and prints the records it saw and its CPU per model call.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load import Server  # noqa: E402
from synth import write_release  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--port", type=int, default=8793)
    args = parser.parse_args()
    from inspect_ai import eval

    from uxbench.runtime.hooks import RedactingFilter

    work = Path(tempfile.mkdtemp(prefix="uxbench-filter-"))
    data = write_release(work / "data", 10, args.records, 10)
    seen = {"records": 0, "seconds": 0.0}
    original = RedactingFilter.filter

    def timed(self: RedactingFilter, record: object) -> bool:
        started = time.process_time()
        try:
            return original(self, record)  # type: ignore[arg-type]
        finally:
            seen["seconds"] += time.process_time() - started
            seen["records"] += 1

    RedactingFilter.filter = timed  # type: ignore[method-assign]
    server = Server(0.05, "", args.port)
    os.environ |= {"BENCH_API_KEY": "bench-key", "BENCH_BASE_URL": server.url}
    try:
        started = time.process_time()
        [log] = eval(
            "uxbench/task2_eval",
            task_args={"data": str(data)},
            model="openai-api/bench/model-under-test",
            model_roles={"grader": "openai-api/bench/grm"},
            max_connections=50,
            log_dir=str(work / "logs"),
            display="none",
            log_realtime=False,
        )
        total = time.process_time() - started
    finally:
        server.stop()
    calls = 2 * args.records
    cpu, records = seen["seconds"], seen["records"]
    print(f"status {log.status}; {calls} model calls; CPU {total:.1f} s ({1000 * total / calls:.1f} ms/call)")
    print(
        f"filter: {records} records ({records / calls:.1f} per call), {cpu:.2f} s CPU "
        f"({1000 * cpu / calls:.2f} ms/call, {100 * cpu / total:.1f} % of the process)"
    )


if __name__ == "__main__":
    main()
