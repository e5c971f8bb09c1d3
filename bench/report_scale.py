"""`uxbench report` at leaderboard scale: 81 full-size logs (27 models × Tasks 1–3).

    python bench/report_scale.py --out bench/results_report.md

1. runs each task once at release size (2,000 / 4,900 / 500 synthetic records,
   bench/synth.py) with `inspect eval` against bench/loadserver.py, which plays the model
   under test and the GRM grader (Task 1 with `--logprobs`, Task 3 with `-T baseline=true`);
2. makes 27 logs of each: a copy of the base log whose header is rewritten with Inspect's
   log API (`write_eval_log(header_only=True)`): the model renamed (real-looking names,
   some 60 characters long, two baselines), its Good-Acc / Bad-Acc / Good% and their
   breakdowns moved by a model-specific offset so the rankings differ, five Task 2/3 logs
   given a second grader;
3. runs `uxbench report` over the 81 logs in a subprocess and records its wall time and peak
   RSS (wait4), then screenshots the page at 1400 and 390 px with Playwright (system
   Chromium) for a reader to look at.

`--base DIR` reuses the logs of step 1 from an earlier run (one .eval per task under DIR).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load import Server, run_inspect  # noqa: E402
from machine import cpu_model  # noqa: E402
from synth import write_release  # noqa: E402

TASKS = {
    "task1_judge": ["--logprobs", "--top-logprobs", "5"],
    "task2_eval": [],
    "task3_recovery": ["-T", "baseline=true"],
}
FLAGS = ["--display", "none", "--no-log-realtime", "--no-score-display", "--max-connections", "100"]
MODELS = [
    "anthropic/claude-opus-4-7",
    "anthropic/claude-sonnet-4-6",
    "openai/gpt-5",
    "openai/gpt-5-mini",
    "openai/gpt-5.2",
    "openai/gpt-5.5",
    "google/gemini-3.1-pro-preview",
    "google/gemini-2.5-flash",
    "openrouter/deepseek/deepseek-v3",
    "openrouter/z-ai/glm-5.1",
    "openrouter/moonshotai/kimi-k2-instruct",
    "openrouter/qwen/qwen3-235b-a22b-instruct-2507",
    "together/meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "together/mistralai/Mistral-Large-Instruct-2411",
    "vllm/Qwen/Qwen3-32B",
    "vllm/Qwen/Qwen3-8B",
    "hf/HuggingFaceTB/SmolLM2-1.7B-Instruct",
    "openai-api/internal/assistant-prod-candidate-2026-11-30-rc2-long",
    "openai-api/internal/assistant-prod-candidate-2026-11-30-rc3-long",
    "openrouter/x-ai/grok-4-fast-reasoning-preview-2026-10-01-exp-2",
    "azure/gpt-5-deployment-eastus2-with-a-very-long-name-001",
    "bedrock/anthropic.claude-opus-4-7-20260101-v1:0-cross-region",
    "mistral/mistral-medium-2608",
    "groq/llama-4-maverick-17b-128e-instruct",
    "fireworks/accounts/fireworks/models/deepseek-r1-0528-distill",
    "uxbench/baseline/always-good",
    "uxbench/baseline/longer",
]
SECOND_GRADER = "openai-api/vllm/Qwen3-32B-as-grader"
SECOND_GRADED = set(range(20, 25))  # model indices whose Task 2/3 logs get the second grader


def base_logs(work: Path) -> dict[str, Path]:
    """One full-size log per task, run with inspect against the load server."""
    data = write_release(work / "data")
    server = Server(latency=0.05, faults="", port=8766)
    env = {**os.environ, "BENCH_API_KEY": "bench-key", "BENCH_BASE_URL": server.url}
    found = {}
    try:
        for task, extra in TASKS.items():
            log_dir = work / "base" / task
            command = [sys.executable, "-m", "inspect_ai", "eval", f"uxbench/{task}", "-T", f"data={data}"]
            command += [
                "--model",
                "openai-api/bench/model-under-test",
                "--model-role",
                "grader=openai-api/bench/grm",
            ]
            command += [*FLAGS, *extra, "--log-dir", str(log_dir)]
            wall, _, _ = run_inspect(command, env)
            print(f"base {task}: {wall:.0f} s", flush=True)
            (found[task],) = log_dir.glob("*.eval")
    finally:
        server.stop()
    return found


# metrics that get a model-specific offset (the rest, e.g. Δ score and ECE, are read from
# the samples too and stay as the base run's, so every number on the page agrees)
SHIFTED = ("good_acc", "bad_acc", "good_pct", "good_pct_valid", "recovery_rate")


def _shift(log, rng: random.Random) -> None:  # noqa: ANN001 (an EvalLog header)
    """Move the shifted metrics and their breakdowns by a model-specific offset."""
    offset = {"good_acc": rng.uniform(-0.35, 0.35), "bad_acc": rng.uniform(-0.35, 0.35)}
    offset["good_pct"] = offset["good_pct_valid"] = offset["recovery_rate"] = rng.uniform(-0.3, 0.3)
    for score in log.results.scores:
        for name, metric in score.metrics.items():
            key = name.partition(":")[0]
            base = next((m for m in SHIFTED if m == name), None)
            if base is None and ":" in name:  # a group: Bad-Acc or Good% per group, its own noise too
                base = (
                    "bad_acc"
                    if key == "failure_dimension"
                    else "good_acc"
                    if key == "success_pattern"
                    else "good_pct"
                )
                offset.setdefault(name, offset.get(base, 0.0) + rng.uniform(-0.1, 0.1))
            if base is not None:
                metric.value = min(1.0, max(0.0, metric.value + offset.get(name, offset[base])))
        if "avg_acc" in score.metrics:
            score.metrics["avg_acc"].value = (
                score.metrics["good_acc"].value + score.metrics["bad_acc"].value
            ) / 2


def fan_out(base: dict[str, Path], logs: Path) -> float:
    """27 logs per task: a copy of the base log whose header is rewritten with Inspect's log
    API (`write_eval_log(..., header_only=True)`): model, date, grader and the shifted
    metrics. Returns the seconds it took."""
    from inspect_ai.log import read_eval_log, write_eval_log
    from inspect_ai.model import ModelConfig

    started = time.perf_counter()
    logs.mkdir(parents=True, exist_ok=True)
    for task, path in base.items():
        for i, model in enumerate(MODELS):
            # named the way Inspect names logs (list_eval_logs reads the header of any other name)
            target = (
                logs / f"2026-11-{1 + i % 28:02d}T12-00-00-00-00_{task.replace('_', '-')}_model{i:02d}.eval"
            )
            shutil.copyfile(path, target)
            log = read_eval_log(str(target), header_only=True)
            log.eval.model = model
            log.eval.created = f"2026-11-{1 + i % 28:02d}T12:00:00+00:00"
            if task != "task1_judge":
                grader = SECOND_GRADER if i in SECOND_GRADED else "openai-api/bench/grm"
                log.eval.model_roles = {"grader": ModelConfig(model=grader)}
            _shift(log, random.Random(f"{task}-{model}"))
            write_eval_log(log, str(target), header_only=True)
        print(f"fan-out {task}: {time.perf_counter() - started:.0f} s", flush=True)
    return time.perf_counter() - started


def measure_report(logs: Path, out: Path) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak RSS MB, console output) of `uxbench report` in its own process.
    CPU is user + system time of the process and its workers; the RSS the sum over them,
    sampled every 0.1 s."""
    import resource

    import psutil

    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "uxbench.cli", "report", str(logs), "--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tree = psutil.Process(process.pid)
    peak = 0
    while process.poll() is None:
        try:
            members = [tree, *tree.children(recursive=True)]
            peak = max(peak, sum(m.memory_info().rss for m in members if m.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.1)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert process.stdout is not None
    printed = process.stdout.read()
    if process.returncode:
        raise RuntimeError(f"uxbench report failed:\n{printed}")
    return wall, cpu, peak / 2**20, printed


def screenshots(page: Path, shots: Path) -> list[Path]:
    """Full-page screenshots of the report at 1400 and 390 px (system Chromium)."""
    from playwright.sync_api import sync_playwright

    taken = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for width in (1400, 390):
            context = browser.new_context(viewport={"width": width, "height": 900})
            tab = context.new_page()
            tab.goto(page.as_uri())
            overflow = tab.evaluate("document.documentElement.scrollWidth") - width
            path = shots / f"report-{width}.png"
            tab.screenshot(path=str(path), full_page=True)
            taken.append(path)
            print(f"screenshot {path} (page wider than the window by {overflow} px)", flush=True)
            context.close()
        browser.close()
    return taken


def results(
    args: argparse.Namespace,
    measured: tuple[float, float, float, str],
    load: str,
    out: Path,
    fan: float | None,
) -> str:
    import inspect_ai
    import psutil

    wall, cpu, rss, printed = measured
    size = sum(p.stat().st_size for p in (args.work / "logs").glob("*.eval")) / 2**20
    written = {p.name: p.stat().st_size for p in out.iterdir()}
    lines = [
        "# `uxbench report` at leaderboard scale",
        "",
        "Command: `python bench/report_scale.py` (its docstring says what it does). 81 logs: 27 models ×",
        "Tasks 1–3 at release size (2,000 / 4,900 / 500 records), made from one real full-size run per",
        "task against bench/loadserver.py with Inspect's log API; five Task 2/3 models graded by a second",
        "grader. The machine is shared: the load average says how much else ran.",
        "",
        "| machine | |",
        "|---|---|",
        f"| cpu | {psutil.cpu_count()} cores, {cpu_model()} |",
        f"| memory | {psutil.virtual_memory().total / 2**30:.1f} GiB |",
        f"| python / inspect-ai | {platform.python_version()} / {inspect_ai.__version__} |",
        f"| load average (1/5/15 min) before the report | {load} |",
        "",
        "| measurement | value | target |",
        "|---|---|---|",
        f"| logs | 81 files, {size:.0f} MB | |",
        *([f"| making the 81 logs from the 3 base logs | {fan:.0f} s | |"] if fan is not None else []),
        f"| `uxbench report` wall time | {wall:.1f} s | ≤ 60 s |",
        f"| `uxbench report` CPU time (user + system, with its workers) | {cpu:.1f} s | |",
        f"| `uxbench report` peak RSS | {rss:.0f} MB | ≤ 1,536 MB |",
        f"| index.html | {written.get('index.html', 0) / 2**20:.1f} MB | |",
        f"| charts | {sum(1 for n in written if n.endswith('.png'))} PNG files | |",
        "",
        "Console output:",
        "",
        "```",
        printed.strip(),
        "```",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--work", type=Path, default=None, help="directory for data, logs, report (default: tmp)"
    )
    parser.add_argument(
        "--base", type=Path, default=None, help="reuse base logs: DIR holds one .eval per task"
    )
    parser.add_argument("--keep-logs", action="store_true", help="reuse WORK/logs from an earlier run")
    parser.add_argument("--out", type=Path, default=HERE / "results_report.md", help="results file")
    args = parser.parse_args()
    args.work = args.work or Path(tempfile.mkdtemp(prefix="uxbench-report-"))
    fan = None
    if not args.keep_logs:
        if args.base:
            base = {task: next(args.base.rglob(f"*_{task.replace('_', '-')}_*.eval")) for task in TASKS}
        else:
            base = base_logs(args.work)
        fan = fan_out(base, args.work / "logs")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    measured = measure_report(args.work / "logs", args.work / "report")
    wall, cpu, rss, printed = measured
    print(printed)
    print(
        f"report: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {rss:.0f} MB (load before: {load})", flush=True
    )
    screenshots(args.work / "report" / "index.html", args.work)
    args.out.write_text(results(args, measured, load, args.work / "report", fan), encoding="utf-8")
    print(
        json.dumps(
            {
                "wall_s": round(wall, 1),
                "cpu_s": round(cpu, 1),
                "peak_rss_mb": round(rss),
                "work": str(args.work),
            }
        )
    )


if __name__ == "__main__":
    main()
