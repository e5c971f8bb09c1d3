"""Benchmark the deterministic pipeline stages (signals, prefilter) on synthetic logs.

    python bench/pipeline_stages.py                 # 71,584 conversations, writes bench/results_pipeline.md
    python bench/pipeline_stages.py --n 5000 --out /tmp/results.md

Each stage runs in its own process, so the peak memory reported (max RSS) is that stage's
alone, imports included. Records per second count conversations in.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

from machine import cpu_model

STAGES = ("synth", "signals", "prefilter")


def run_stage(stage: str, work: Path, n: int, seed: int) -> dict[str, float]:
    """One stage in this process; prints nothing, returns its measurements."""
    start = time.perf_counter()
    if stage == "synth":
        from uxbench.pipeline.synth import write_synth

        imported = time.perf_counter()
        records = write_synth(work / "raw.jsonl", n, seed)
    elif stage == "signals":
        from uxbench.pipeline.stages import signals_stage

        imported = time.perf_counter()
        records = signals_stage(work / "raw.jsonl", work / "signals.jsonl")["conversations"]
    else:
        from uxbench.pipeline.dedup import DuplicateIndex
        from uxbench.pipeline.stages import prefilter_stage

        DuplicateIndex()  # pays datasketch's (scipy) import before the clock starts
        imported = time.perf_counter()
        records = prefilter_stage(
            work / "signals.jsonl", work / "prefiltered.jsonl", work / "rejected.jsonl"
        )["conversations_in"]
    done = time.perf_counter()
    return {
        "records": records,
        "import_seconds": imported - start,
        "seconds": done - imported,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def machine() -> dict[str, str]:
    try:
        memory = next(
            ln for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal")
        )
        memory_gb = f"{int(memory.split()[1]) / 1024**2:.1f} GB"
    except (OSError, StopIteration):
        memory_gb = "?"
    return {
        "cpu": cpu_model(),
        "cores": str(os.cpu_count()),
        "memory": memory_gb,
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "datasketch": version("datasketch"),
        "load average before": " / ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def report(
    n: int, seed: int, results: dict[str, dict[str, float]], facts: dict[str, str], command: str
) -> str:
    lines = [
        "# Pipeline benchmark: deterministic stages",
        "",
        f"{n:,} synthetic conversations (`uxbench pipeline synth`, seed {seed}); "
        "each stage in its own process.",
        "",
        "Reproduce with:",
        "",
        f"    {command}",
        "",
        "| stage | records | wall time (s) | records / s | peak memory (MB, max RSS) | import time (s) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for stage, r in results.items():
        rate = r["records"] / r["seconds"] if r["seconds"] else 0.0
        lines.append(
            f"| {stage} | {r['records']:,} | {r['seconds']:.1f} | {rate:,.0f} | {r['peak_rss_mb']:.0f} | "
            f"{r['import_seconds']:.1f} |"
        )
    total = sum(results[s]["seconds"] for s in ("signals", "prefilter"))
    lines += [
        "",
        f"signals + prefilter: {total:.1f} s for {n:,} conversations ({n / total:,.0f} conversations / s).",
        "",
        "Machine:",
        "",
        *[f"- {k}: {v}" for k, v in facts.items()],
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=71_584)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_pipeline.md")))
    parser.add_argument("--stage", choices=STAGES, help=argparse.SUPPRESS)  # internal: one stage
    parser.add_argument("--work", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage:
        print(json.dumps(run_stage(args.stage, Path(args.work), args.n, args.seed)))
        return
    facts = machine()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as work:
        for stage in STAGES:
            child = [sys.executable, __file__, "--stage", stage, "--work", work, "--n", str(args.n)]
            output = subprocess.run(
                [*child, "--seed", str(args.seed)], check=True, capture_output=True, text=True
            )
            results[stage] = json.loads(output.stdout.strip().splitlines()[-1])
            print(stage, results[stage], flush=True)
    facts["load average after"] = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    command = f"python bench/pipeline_stages.py --n {args.n} --seed {args.seed}"
    Path(args.out).write_text(report(args.n, args.seed, results, facts, command), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
