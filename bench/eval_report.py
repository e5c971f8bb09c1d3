"""The README's Evaluation Report: what can run on a machine without the hub, API keys or GPUs.

Run by hand (about ten minutes on 2 CPU cores, most of it the embedded model writing replies):

    python bench/eval_report.py [--out bench/results_eval_report.md]

Each row is one `inspect eval` command (shown in the table) on the bundled synthetic sample
(`-T data=sample`): the baseline models, and the embedded model `uxbench/smollm2` as judge,
writer and grader. The paper's models follow with the paper's values; they need the hub
dataset and the models' APIs (and UXBench-GRM for Tasks 2 and 3), so their "ours" column
stays empty here. The sample is not the benchmark's data: these rows show that the path
works and what a trivial strategy scores, never a model's UXBench result.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from uxbench.report import published

ROOT = Path(__file__).resolve().parent.parent
HEADLINE = {"task1_judge": "avg_acc", "task2_eval": "good_pct", "task3_recovery": "recovery_rate"}
STDERR = {
    "task1_judge": "avg_acc_stderr",
    "task2_eval": "good_pct_stderr",
    "task3_recovery": "good_pct_stderr",
}
SAMPLE = "-T data=sample"
JUDGE = "--logprobs --top-logprobs 5"
# (tasks, model, grader, extra flags); one `inspect eval` each
RUNS: list[tuple[str, str, str | None, str]] = [
    *(
        ("task1_judge", f"uxbench/baseline/{b}", None, JUDGE)
        for b in ("always-good", "always-bad", "longer", "length")
    ),
    ("task1_judge", "uxbench/smollm2-grader", None, f"{JUDGE} --seed 42"),
    ("task2_eval task3_recovery", "uxbench/baseline/longer", "uxbench/baseline/length", ""),
    ("task2_eval task3_recovery", "uxbench/smollm2", "uxbench/smollm2-grader", "--max-tokens 64 --seed 42"),
]


def command(tasks: str, model: str, grader: str | None, flags: str) -> str:
    names = " ".join(f"uxbench/{t}" for t in tasks.split())
    role = f" --model-role grader={grader}" if grader else ""
    return f"inspect eval {names} --model {model}{role} {SAMPLE} {flags}".strip()


def percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results_eval_report.md")
    args = parser.parse_args()
    today = datetime.date.today().isoformat()
    rows = []
    for tasks, model, grader, flags in RUNS:
        cmd = command(tasks, model, grader, flags)
        with tempfile.TemporaryDirectory() as logs:
            full = [
                sys.executable,
                "-m",
                "inspect_ai",
                *shlex.split(cmd)[1:],
                "--log-dir",
                logs,
                "--display",
                "none",
            ]
            subprocess.run(full, check=True, capture_output=True, text=True)
            done = [read_eval_log(path) for path in list_eval_logs(logs)]
            for log in sorted(done, key=lambda log: list(HEADLINE).index(log.eval.task.split("/")[-1])):
                task = log.eval.task.split("/")[-1]
                metrics = (
                    {name: m.value for name, m in log.results.scores[0].metrics.items()}
                    if log.results
                    else {}
                )
                assert log.status == "success", f"{cmd}: {log.status}"
                judged = f"{model} (grader {grader})" if grader else model
                ours, stderr = percent(metrics[HEADLINE[task]]), percent(metrics[STDERR[task]])
                samples = len(log.samples or [])
                rows.append(
                    f"| {task} | {judged} | — | {ours} | — | {samples} | {stderr} | {today}: `{cmd}` |"
                )
    for task, metric in HEADLINE.items():
        for name, values in published.paper_models(task).items():
            rows.append(
                f"| {task} | {name} | {percent(values[metric])} | not run here | — | — | — | the paper |"
            )
        for name, values in published.references(task).items():
            rows.append(
                f"| {task} | {name} | {percent(values[metric])} | not run here | — | — | — | the paper |"
            )
    lines = [
        "# Evaluation Report runs",
        "",
        "Command: `python bench/eval_report.py`. Values in %; stderr is the headline's standard error.",
        "",
        "| task | model | paper | ours | difference | samples | stderr | date: command |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
