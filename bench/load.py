"""Run the UXBench tasks at full size against the local load server and measure them.

    python bench/load.py --latency 2 --max-connections 100 --repeat 2

writes synthetic release files (2,000 / 4,900 / 500 records), starts
`bench/loadserver.py` in its own process (model under test and GRM grader behind the
same server), runs each task with `inspect eval` in a subprocess and records per run:
wall time (process, and the eval proper from the log), the ideal time (records × calls
per record × latency ÷ connections), their ratio, CPU seconds (total, per record, and
per record beyond a 1-sample run's fixed start-up cost), peak RSS, log size and the
server's own CPU. Results are printed as a Markdown table and appended as JSON lines
to --out. `--profile` records each run with py-spy and reports where its CPU went.

`--shards N` runs each task as `uxbench run --shards N` (N `inspect eval-set` processes,
`-T shard=K/N`, the connections divided among them): wall and CPU are the launcher's and all
its processes', and the shard logs are pooled as the report pools them (report/pooling.py)
before they are verified and their metrics recorded (they must equal the one-process run's).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from machine import cpu_model  # noqa: E402
from profile_report import summarise  # noqa: E402
from synth import FULL_SIZE, write_release  # noqa: E402

CALLS_PER_RECORD = {"task1": 1, "task2": 2, "task3": 2, "bare_short": 1}  # model (+ grader)
TASK_REFS = {
    "task1": "uxbench/task1_judge",
    "task2": "uxbench/task2_eval",
    "task3": "uxbench/task3_recovery",
    # a reference task on the Task 1 records with no UXBench code in the sample path (bench/bare.py)
    "bare_short": f"{HERE / 'bare.py'}@bare_short",
}
DATA_OF = {"bare_short": "task1"}
# The flags of the runs in bench/RESULTS.md (docs/scale.md explains them); --flags replaces them.
DEFAULT_FLAGS = "--display none --no-log-realtime --no-score-display"


@dataclass
class Run:
    task: str
    records: int
    latency: float
    connections: int
    flags: str
    faults: str  # server fault rates ("" = none)
    wall: float  # process start to exit, seconds
    eval_wall: float  # log started_at to completed_at
    ideal: float
    ratio: float  # wall / ideal
    eval_ratio: float
    cpu: float  # user + system seconds of the inspect process
    cpu_ms_per_record: float
    marginal_cpu_ms_per_record: float | None  # (cpu - 1-sample run's cpu) / (records - 1)
    peak_rss_mb: float
    log_mb: float
    server_cpu_ms_per_request: float
    server_requests: int
    status: str
    samples: int
    unique_scored: int | None  # with --verify: samples with a unique id, one score and no error
    load_before: float  # 1-minute load average when the run started
    shards: int = 1  # processes the run was split over (uxbench run --shards)
    load_after: float | None = None  # 1-minute load average when the run ended (a shared machine)
    metrics: dict[str, float] | None = None  # the log's scalar metrics (a fault run must match a clean one)
    profile: dict[str, float] | None = None


def machine_facts() -> str:
    import inspect_ai

    return (
        f"{psutil.cpu_count()} cores ({cpu_model()}), {psutil.virtual_memory().total / 2**30:.0f} GB RAM, "
        f"Python {platform.python_version()}, inspect-ai {inspect_ai.__version__}, {platform.platform()}"
    )


class Server:
    """bench/loadserver.py in its own process, so its CPU never competes with Inspect's GIL."""

    def __init__(self, latency: float, faults: str, port: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "loadserver.py"), "--port", str(port), "--latency", str(latency)]
            + (["--faults", faults] if faults else []),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.url = json.loads(self.process.stdout.readline())["url"]
        self.ps = psutil.Process(self.process.pid)

    def cpu(self) -> float:
        times = self.ps.cpu_times()
        return times.user + times.system

    def requests(self) -> int:
        with urllib.request.urlopen(self.url.removesuffix("/v1") + "/stats", timeout=10) as response:
            return int(json.load(response).get("requests", 0))

    def stop(self) -> dict[str, float]:
        self.process.terminate()
        out, _ = self.process.communicate(timeout=30)
        return json.loads(out.strip().splitlines()[-1])


def inspect_command(
    task: str, data: Path, args: argparse.Namespace, log_dir: Path, limit: int | None
) -> list[str]:
    command = [
        "eval", TASK_REFS[task],
        "-T", f"data={data}",
        "--model", "openai-api/bench/model-under-test",
        "--model-role", "grader=openai-api/bench/grm",
        "--max-connections", str(args.max_connections),
        "--log-dir", str(log_dir),
        *args.flags.split(),
    ]  # fmt: skip
    return command + (["--limit", str(limit)] if limit else [])


def run_inspect(command: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Run a command; its (wall seconds, user+system CPU seconds, peak RSS MB) from wait4."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{error[-3000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def pool(log_dir: Path) -> None:
    """A sharded run's logs (LOG_DIR/shard-K-of-N/*.eval) pooled into LOG_DIR/pooled.eval."""
    from uxbench.report.pooling import pool_log

    shards = sorted(log_dir.glob("shard-*/*.eval"))
    pool_log((tuple(map(str, shards)), str(log_dir / "pooled.eval")))


def log_facts(log_dir: Path) -> tuple[str, int, float, float, dict[str, float]]:
    """(status, samples, eval wall seconds, file MB, scalar metrics) of the one log in `log_dir`
    (a sharded run's: pooled; its eval wall from the first shard's start to the last one's end)."""
    from inspect_ai.log import read_eval_log

    (path,) = log_dir.glob("*.eval")
    log = read_eval_log(str(path), header_only=True)
    headers = [read_eval_log(str(p), header_only=True) for p in log_dir.glob("shard-*/*.eval")] or [log]
    started = min(datetime.fromisoformat(h.stats.started_at) for h in headers)
    completed = max(datetime.fromisoformat(h.stats.completed_at) for h in headers)
    samples = log.results.completed_samples if log.results else 0
    metrics = {
        name: round(metric.value, 6)
        for score in (log.results.scores if log.results else [])
        for name, metric in score.metrics.items()
        if isinstance(metric.value, int | float)
    }
    eval_wall = (completed - started).total_seconds()
    size = sum(p.stat().st_size for p in log_dir.glob("shard-*/*.eval")) or path.stat().st_size
    return log.status, samples, eval_wall, size / 2**20, metrics


def verify(log_dir: Path) -> int:
    """Samples that are present once, scored once and error-free (a lost or doubled one shows)."""
    from inspect_ai.log import read_eval_log_sample_summaries

    (path,) = log_dir.glob("*.eval")
    summaries = read_eval_log_sample_summaries(str(path))
    ids = [s.id for s in summaries]
    good = [s for s in summaries if s.error is None and s.scores is not None and len(s.scores) == 1]
    return len(good) if len(ids) == len(set(ids)) else -1


def measure(
    task: str, data: Path, server: Server, args: argparse.Namespace, work: Path, base_cpu: float | None
) -> Run:
    env = {**os.environ, "BENCH_API_KEY": "bench-key", "BENCH_BASE_URL": server.url}
    log_dir = Path(tempfile.mkdtemp(prefix=f"{task}-", dir=work))
    records = args.sizes[DATA_OF.get(task, task)]
    command = [sys.executable, "-m", "inspect_ai", *inspect_command(task, data, args, log_dir, args.limit)]
    if args.shards > 1:  # the same arguments, to the launcher: `uxbench run TASK --shards N ...`
        launch = ["-m", "uxbench.cli", "run", TASK_REFS[task], "--shards", str(args.shards)]
        command = [sys.executable, *launch, *command[command.index("-T") :]]
    load = os.getloadavg()[0]
    server_cpu, server_requests = server.cpu(), server.requests()
    profile = log_dir / "profile.txt" if args.profile else None
    if profile is not None:
        children = ["--subprocesses"] if args.shards > 1 else []
        command = ["py-spy", "record", "-r", "50", "-f", "raw", *children, "-o", str(profile), "--", *command]
    wall, cpu, rss = run_inspect(command, env)
    load_after = os.getloadavg()[0]
    if args.shards > 1:
        pool(log_dir)
    requests = server.requests() - server_requests
    status, samples, eval_wall, log_mb, metrics = log_facts(log_dir)
    unique_scored = verify(log_dir) if args.verify else None
    records = min(records, args.limit or records)
    ideal = records * CALLS_PER_RECORD[task] * args.latency / args.max_connections
    return Run(
        task=task,
        records=records,
        latency=args.latency,
        connections=args.max_connections,
        flags=args.flags,
        faults=args.faults,
        wall=round(wall, 1),
        eval_wall=round(eval_wall, 1),
        ideal=round(ideal, 1),
        ratio=round(wall / ideal, 2) if ideal else float("nan"),
        eval_ratio=round(eval_wall / ideal, 2) if ideal else float("nan"),
        cpu=round(cpu, 1),
        cpu_ms_per_record=round(1000 * cpu / records, 1),
        marginal_cpu_ms_per_record=None
        if base_cpu is None
        else round(1000 * (cpu - base_cpu) / (records - 1), 1),
        peak_rss_mb=round(rss),
        log_mb=round(log_mb, 1),
        server_cpu_ms_per_request=round(1000 * (server.cpu() - server_cpu) / max(requests, 1), 2),
        server_requests=requests,
        status=status,
        samples=samples,
        unique_scored=unique_scored,
        load_before=round(load, 2),
        shards=args.shards,
        load_after=round(load_after, 2),
        metrics=metrics,
        profile=summarise(profile) if profile is not None else None,
    )


COLUMNS = {
    "task": "task",
    "shards": "shards",
    "records": "records",
    "latency": "latency s",
    "connections": "conns",
    "wall": "wall s",
    "eval_wall": "eval wall s",
    "ideal": "ideal s",
    "ratio": "wall/ideal",
    "eval_ratio": "eval/ideal",
    "cpu": "CPU s",
    "cpu_ms_per_record": "CPU ms/rec",
    "marginal_cpu_ms_per_record": "marginal ms/rec",
    "peak_rss_mb": "peak RSS MB",
    "log_mb": "log MB",
    "server_cpu_ms_per_request": "server ms/req",
    "load_before": "load",
    "load_after": "load after",
}


def markdown(runs: list[Run]) -> str:
    rows = ["| " + " | ".join(COLUMNS.values()) + " |", "|" + "---|" * len(COLUMNS)]
    rows += ["| " + " | ".join(f"{getattr(r, name)}" for name in COLUMNS) + " |" for r in runs]
    return "\n".join(rows)


def table(path: Path) -> str:
    """The Markdown table of the runs recorded in a JSON-lines file written by --out."""
    names = {f.name for f in fields(Run)}
    lines = path.read_text(encoding="utf-8").splitlines()
    runs = [json.loads(line) for line in lines]
    return markdown([Run(**{k: v for k, v in run.items() if k in names}) for run in runs])


def main() -> None:
    if sys.argv[1:2] == ["--table"]:
        print(table(Path(sys.argv[2])))
        return
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog="--table FILE: print a results table"
    )
    parser.add_argument("--tasks", default="task1,task2,task3")
    parser.add_argument("--latency", type=float, default=2.0)
    parser.add_argument("--max-connections", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--sizes", default=",".join(str(n) for n in FULL_SIZE.values()), help="task1,task2,task3 records"
    )
    parser.add_argument("--limit", type=int, default=None, help="pass --limit to inspect (quick checks)")
    parser.add_argument(
        "--flags", default=DEFAULT_FLAGS, help=f"extra inspect eval flags (default: {DEFAULT_FLAGS})"
    )
    parser.add_argument("--faults", default="", help="server fault rates, e.g. 429=0.05,500=0.02")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--shards", type=int, default=1, help="split each run over N processes (uxbench run)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the 1-sample start-up cost run")
    parser.add_argument("--profile", action="store_true", help="record each run with py-spy (slower)")
    parser.add_argument(
        "--verify", action="store_true", help="check every record is in the log once, scored once"
    )
    parser.add_argument(
        "--work", type=Path, default=None, help="directory for data and logs (default: a tmp dir)"
    )
    parser.add_argument(
        "--out", type=Path, default=HERE / "runs.jsonl", help="append results here as JSON lines"
    )
    args = parser.parse_args()
    args.sizes = dict(zip(FULL_SIZE, (int(n) for n in args.sizes.split(",")), strict=True))
    work = args.work or Path(tempfile.mkdtemp(prefix="uxbench-load-"))
    data = write_release(work / "data", **args.sizes)
    print(f"# {machine_facts()}\n# data and logs in {work}", flush=True)
    server = Server(args.latency, args.faults, args.port)
    runs: list[Run] = []
    try:
        for task in args.tasks.split(","):
            base_cpu = None
            if not args.no_baseline:
                base_args = argparse.Namespace(**{**vars(args), "limit": 1, "profile": False, "shards": 1})
                base_cpu = measure(task, data, server, base_args, work, None).cpu
            for _ in range(args.repeat):
                run = measure(task, data, server, args, work, base_cpu)
                runs.append(run)
                print(json.dumps(asdict(run), ensure_ascii=False), flush=True)
                with args.out.open("a", encoding="utf-8") as handle:
                    handle.write(
                        json.dumps({"machine": machine_facts(), **asdict(run)}, ensure_ascii=False) + "\n"
                    )
    finally:
        counts = server.stop()
    print(markdown(runs))
    print(f"server: {json.dumps(counts)}")


if __name__ == "__main__":
    main()
