"""Benchmark the construction pipeline on synthetic logs (`uxbench pipeline synth`).

    python bench/pipeline_stages.py deterministic --n 100000 --workers 2   # signals + prefilter
    python bench/pipeline_stages.py agents --n 10000 --workers 1           # miner, judge, QA (dry run)
    python bench/pipeline_stages.py agents --n 2000 --executor ray --workers 2
    python bench/pipeline_stages.py hashseed --n 100000                    # dedup under two hash seeds

Each measurement runs in a fresh process, so its peak memory (max RSS) is its own, imports
included; worker processes are reported apart (the largest one). Every part prints one JSON
line per run; bench/results_pipeline.md holds the figures and the commands behind them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from machine import cpu_model

WORK = Path(os.environ.get("UXBENCH_BENCH_DIR", tempfile.gettempdir())) / "uxbench-bench-pipeline"


def raw_log(n: int, seed: int) -> Path:
    """The synthetic log of `n` conversations (written once, kept for later parts)."""
    from uxbench.pipeline.tools.synth import write_synth

    path = WORK / f"raw-{n}-{seed}.jsonl"
    if not path.exists():
        WORK.mkdir(parents=True, exist_ok=True)
        write_synth(path.with_suffix(".partial"), n, seed)
        path.with_suffix(".partial").rename(path)
    return path


class Meter:
    """CPU seconds of this process and of every process below it (workers, the fork server,
    Ray's processes), and the largest RSS among those, sampled every 0.2 s so that workers
    that exit are counted too."""

    def __init__(self) -> None:
        import psutil

        self._me = psutil.Process()
        self._seen: dict[int, float] = {}
        self._rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._start = self._own()
        self._thread.start()

    def _own(self) -> float:
        times = self._me.cpu_times()
        return float(times.user + times.system)

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            for child in self._me.children(recursive=True):
                try:
                    times, rss = child.cpu_times(), child.memory_info().rss
                except Exception:  # it has just exited
                    continue
                self._seen[child.pid] = times.user + times.system
                self._rss = max(self._rss, rss)

    def stop(self) -> dict[str, float]:
        """CPU seconds since the meter started: this process's, and the others'."""
        self._stop.set()
        self._thread.join()
        return {
            "main_cpu_seconds": self._own() - self._start,
            "workers_cpu_seconds": sum(self._seen.values()),
            "worker_peak_rss_mb": self._rss / 2**20,
        }


def peak_rss() -> dict[str, float]:
    return {"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def stage(name: str, n: int, seed: int, workers: int) -> dict[str, Any]:
    """One deterministic stage in this process."""
    from uxbench.pipeline.run.drivers import prefilter_stage, signals_stage
    from uxbench.pipeline.stages.dedup import DuplicateIndex

    DuplicateIndex()  # pays datasketch's import before the clock starts
    raw = raw_log(n, seed)
    signals = WORK / f"signals-{n}-{seed}.jsonl"
    start, meter = time.perf_counter(), Meter()
    if name == "signals":
        count = signals_stage(raw, signals, workers=workers)["conversations"]
    else:
        kept = prefilter_stage(signals, WORK / "prefilter.jsonl", WORK / "rejected.jsonl", workers=workers)
        count = kept["conversations_in"]
    seconds = time.perf_counter() - start
    cpu = meter.stop()
    return {
        "stage": name,
        "n": n,
        "workers": workers,
        "records": count,
        "seconds": seconds,
        **cpu,
        **peak_rss(),
    }


def agents(n: int, seed: int, workers: int, executor: str, chunk_size: int) -> dict[str, Any]:
    """Miner, judge and QA with the dry-run model, on the prefiltered conversations of `n`."""
    from uxbench.pipeline.read.files import stats_path
    from uxbench.pipeline.run.drivers import prefilter_stage, signals_stage
    from uxbench.pipeline.run.models import ModelSpec
    from uxbench.pipeline.run.runner import STAGE_FILES, RunOptions, run_pipeline

    raw = raw_log(n, seed)
    base = WORK / f"agents-{n}-{seed}"
    if not (base / "02_prefilter.stats.json").exists():  # the deterministic stages, once
        signals_stage(raw, base / STAGE_FILES["signals"])
        prefilter_stage(base / STAGE_FILES["signals"], base / STAGE_FILES["prefilter"])
    run = WORK / f"agents-{n}-{seed}-{executor}-{workers}"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir()
    for name in ("signals", "prefilter"):
        for path in (base / STAGE_FILES[name], stats_path(base / STAGE_FILES[name])):
            shutil.copy(path, run / path.name)
    cluster = None
    address = None
    if executor == "ray":
        from ray.cluster_utils import Cluster

        head = {"num_cpus": workers, "include_dashboard": False}
        cluster = Cluster(initialize_head=True, head_node_args=head)
        address = cluster.address
    options = RunOptions(chunk_size=chunk_size, workers=workers, executor=executor, ray_address=address)
    start, meter = time.perf_counter(), Meter()
    try:
        stats = run_pipeline(raw, run, ModelSpec(dry_run=True), options, progress=False)
    finally:
        if cluster is not None:
            cluster.shutdown()
    seconds = time.perf_counter() - start
    cpu = meter.stop()
    samples = sum(stats[name]["items"] for name in ("miner", "judge", "qa"))
    outputs = b"".join((run / STAGE_FILES[name]).read_bytes() for name in ("miner", "judge", "qa"))
    digest = hashlib.sha256(outputs).hexdigest()[:16]
    return {
        "part": "agents",
        "n": n,
        "executor": executor,
        "workers": workers,
        "samples": samples,
        "seconds": seconds,
        "samples_per_second": samples / seconds,
        **cpu,
        "outputs_sha256": digest,
        **peak_rss(),
    }


def hashseed(n: int, seed: int) -> dict[str, Any]:
    """The prefilter's rejections under PYTHONHASHSEED 1 and 2: how many rows differ."""
    outputs = []
    for hash_seed in ("1", "2"):
        out = WORK / f"rejected-hashseed-{hash_seed}.jsonl"
        flags = ["--n", str(n), "--seed", str(seed), "--out", str(out)]
        in_child(["prefilter-to", *flags], {"PYTHONHASHSEED": hash_seed})
        outputs.append(out.read_text(encoding="utf-8").splitlines())
    differ = sum(a != b for a, b in zip(*outputs, strict=True))
    return {"part": "hashseed", "n": n, "rejections": len(outputs[0]), "rows_that_differ": differ}


def prefilter_to(n: int, seed: int, rejected: str) -> dict[str, Any]:
    """Signals (if not done yet) and prefilter, the rejections to `rejected`."""
    from uxbench.pipeline.run.drivers import prefilter_stage, signals_stage

    signals = WORK / f"signals-{n}-{seed}.jsonl"
    if not signals.exists():
        signals_stage(raw_log(n, seed), signals)
    return prefilter_stage(signals, WORK / "prefilter-hashseed.jsonl", rejected)


def in_child(arguments: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run this script with `arguments` in a fresh process; its last JSON line."""
    output = subprocess.run(
        [sys.executable, __file__, *arguments],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    return dict(json.loads(output.stdout.strip().splitlines()[-1]))


def machine() -> dict[str, Any]:
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "load_average": os.getloadavg()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    internal = ("stage", "agents-here", "prefilter-to")  # one measurement in a fresh process
    parser.add_argument("part", choices=("deterministic", "agents", "hashseed", *internal))
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--executor", choices=("local", "ray"), default="local")
    parser.add_argument("--chunk-size", type=int, default=100)
    parser.add_argument("--stage", choices=("signals", "prefilter"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    common = ["--n", str(args.n), "--seed", str(args.seed), "--workers", str(args.workers)]
    if args.part == "stage":
        print(json.dumps(stage(args.stage, args.n, args.seed, args.workers)))
    elif args.part == "agents-here":
        print(json.dumps(agents(args.n, args.seed, args.workers, args.executor, args.chunk_size)))
    elif args.part == "prefilter-to":
        print(json.dumps(prefilter_to(args.n, args.seed, args.out)))
    else:
        raw_log(args.n, args.seed)  # written before any clock starts
        before = machine()
        if args.part == "deterministic":
            results = [in_child(["stage", "--stage", name, *common]) for name in ("signals", "prefilter")]
        elif args.part == "agents":
            flags = ["--executor", args.executor, "--chunk-size", str(args.chunk_size)]
            results = [in_child(["agents-here", *common, *flags])]
        else:
            results = [hashseed(args.n, args.seed)]
        for result in results:
            print(json.dumps({**result, "machine_before": before, "load_after": os.getloadavg()}), flush=True)


if __name__ == "__main__":
    main()
