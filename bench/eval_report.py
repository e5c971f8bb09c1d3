"""The README's Evaluation Report: what can run on a machine without the hub, API keys or GPUs.

Run by hand (2 CPU cores):

    python bench/eval_report.py [--out bench/results_eval_report.md]            # ~10 min
    python bench/eval_report.py --replay ~/uxbench-original [--data DIR]         # ~1 h

Without `--replay`, each row is one `inspect eval` command (shown in the table) on the bundled
synthetic sample (`-T data=sample`): the baseline models, and the embedded model
`uxbench/smollm2` as judge, writer and grader, then the paper's values. The sample is not the
benchmark's data: these rows show that the path works and what a trivial strategy scores.

With `--replay DIR` (the root of your copy of the published per-model outputs,
docs/protocol.md#published-per-model-outputs), every published model is replayed on Tasks
1–3 (`--model uxbench/replay/<m> --model-role grader=uxbench/replay-grm/<m>`, docs/graders.md) and each row
set beside the paper's value. `--data DIR` is your copy of the dataset; without it the
records are stand-ins written to a temporary directory (the published files' cids and Task 1
labels, our own placeholder text, `"origin": "stand-in"` and no other label), which changes
nothing in a replay's headline: the answers and grades come by cid. The report then says the rows
ran on stand-ins and draws no breakdown (the stand-ins hold no failure dimension or scenario).
Reply files that are Git LFS pointers are replayed with `-M replies=none`. Each section of the
results file is rewritten by its own kind of run; the other is kept.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from decimal import Decimal
from pathlib import Path

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log, read_eval_log_sample_summaries

from uxbench.data.dataset import RELEASE_FILES
from uxbench.data.records import ORIGIN_FIELD, STAND_IN
from uxbench.qualification.published import NO_ROW_ANSWER, TASK_DIRS, VERDICTS_DIR
from uxbench.report import paper_numbers
from uxbench.report.percent import pct

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
    """As the report prints it (half up on the decimal value), so the two never disagree."""
    return "—" if value is None else pct(value)


def run_logs(cmd: str, logs: str) -> list[EvalLog]:
    """Run one `inspect eval` command into `logs`; its logs in task order (Task 1 first)."""
    full = [sys.executable, "-m", "inspect_ai", *shlex.split(cmd)[1:], "--log-dir", logs, "--display", "none"]
    done = subprocess.run(full, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{cmd} failed:\n{done.stderr[-2000:]}")
    found = [read_eval_log(path, header_only=True) for path in list_eval_logs(logs)]
    for log in found:
        assert log.status == "success", f"{cmd}: {log.status} {log.error.message if log.error else ''}"
    return sorted(found, key=lambda log: list(HEADLINE).index(log.eval.task.split("/")[-1]))


def metrics_of(log: EvalLog) -> dict[str, float]:
    return {name: m.value for name, m in log.results.scores[0].metrics.items()} if log.results else {}


def sample_rows(today: str) -> list[str]:
    rows = []
    for tasks, model, grader, flags in RUNS:
        cmd = command(tasks, model, grader, flags)
        with tempfile.TemporaryDirectory() as logs:
            for log in run_logs(cmd, logs):
                task = log.eval.task.split("/")[-1]
                metrics = metrics_of(log)
                judged = f"{model} (grader {grader})" if grader else model
                ours, stderr = percent(metrics[HEADLINE[task]]), percent(metrics[STDERR[task]])
                samples = log.results.completed_samples if log.results else 0
                rows.append(
                    f"| {task} | {judged} | — | {ours} | — | {samples} | {stderr} | {today}: `{cmd}` |"
                )
    for task, metric in HEADLINE.items():
        for name, values in paper_numbers.paper_models(task).items():
            rows.append(
                f"| {task} | {name} | {percent(values[metric])} | not run here | — | — | — | the paper |"
            )
        for name, values in paper_numbers.references(task).items():
            rows.append(
                f"| {task} | {name} | {percent(values[metric])} | not run here | — | — | — | the paper |"
            )
    return [
        SAMPLE_TITLE,
        "",
        "Command: `python bench/eval_report.py`. Values in %; stderr is the headline's standard error.",
        "",
        "| task | model | paper | ours | difference | samples | stderr | date: command |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]


# ---------------------------------------------------------------- replaying the published outputs

SAMPLE_TITLE = "## Sample runs"
REPLAY_TITLE = "## Replayed published outputs"
TASKS = " ".join(f"uxbench/{t}" for t in HEADLINE)
PLACEHOLDER = (
    "（占位文本：本机没有数据集的副本）"  # our own words: "placeholder: no copy of the dataset here"
)


def _cids(files: list[Path]) -> dict[str, int | None]:
    """cid → the Task 1 label the files give (None for Tasks 2/3), over all the files."""
    found: dict[str, int | None] = {}
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                found.setdefault(str(row["cid"]), int(row["ground_truth"]) if "ground_truth" in row else None)
    return found


def stand_in_data(outputs: Path, directory: Path) -> Path:
    """Release-shaped records with the published files' cids (and Task 1 labels) and placeholder text,
    each saying it is a stand-in: no label is invented for them (docs/data.md#record-origin)."""
    turn = [{"role": "user", "content": PLACEHOLDER}]
    origin = {ORIGIN_FIELD: STAND_IN}
    judged = _cids(sorted((outputs / VERDICTS_DIR / "responses").glob("*.jsonl")))
    files: dict[str, list[dict]] = {
        "task1_judge_good": [],
        "task1_judge_bad": [],
        "task2_eval": [
            {"cid": cid, **origin, "query": PLACEHOLDER, "history": []}
            for cid in _cids(sorted((outputs / TASK_DIRS["task2"] / "judge").glob("*.jsonl")))
        ],
        "task3_recovery": [
            {"cid": cid, **origin, "history": turn, "failed_response": PLACEHOLDER}
            | {"user_complaint": PLACEHOLDER}
            for cid in _cids(sorted((outputs / TASK_DIRS["task3"] / "judge").glob("*.jsonl")))
        ],
    }
    for cid, label in judged.items():
        config = "task1_judge_good" if label == 1 else "task1_judge_bad"
        record = {"cid": cid, **origin, "ground_truth": label, "history": [], "query": PLACEHOLDER}
        files[config].append(record | {"response": PLACEHOLDER})
    directory.mkdir(parents=True, exist_ok=True)
    for config, records in files.items():
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        (directory / RELEASE_FILES[config]).write_text(text, encoding="utf-8")
    return directory


def lfs_pointer(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(40).startswith(b"version https://git-lfs.github.com/spec/")


def no_row_count(path: str) -> int:
    """Samples answered for a record without a published row (a failed judgment the scorer counted)."""
    return sum(
        any((score.metadata or {}).get("raw") == NO_ROW_ANSWER for score in (s.scores or {}).values())
        for s in read_eval_log_sample_summaries(path)
    )


def difference(paper: float | None, ours: float | None) -> str:
    """Ours − paper, both as printed (one decimal)."""
    if paper is None or ours is None:
        return "—"
    delta = Decimal(percent(ours)) - Decimal(percent(paper))
    return "0.0" if delta == 0 else f"{delta:+.1f}"


def finished(logs: Path) -> dict[str, EvalLog]:
    """The successful logs already in `logs`, by task (a rerun with the same --log-dir resumes)."""
    found = [read_eval_log(info, header_only=True) for info in list_eval_logs(str(logs))]
    return {log.eval.task.split("/")[-1]: log for log in found if log.status == "success"}


def why(task: str, model: str, paper: float, ours: float) -> str:
    """Why a replayed number differs from the paper's printed one."""
    if abs(100 * ours - 100 * paper) <= 0.05 + 1e-9:
        return (
            f"rounding: the exact value {100 * ours:.2f} lies halfway; the paper prints "
            f"{percent(paper)}, this report {percent(ours)}"
        )
    return paper_numbers.note(task, f"replay/{model}") or "not explained"


def replay_model(
    model: str, outputs: Path, records: Path, source: str, logs: Path, today: str, run: bool = True
) -> list[tuple[str, str | None]]:
    """The rows of one published model: Tasks 1–3 replayed in one `inspect eval` (those not yet
    finished in `logs`)."""
    replies = outputs / TASK_DIRS["task2"] / "responses" / f"{model}.jsonl"
    flags = " -M replies=none" if replies.is_file() and lfs_pointer(replies) else ""
    grader = f"uxbench/replay-grm/{model}"
    shown = f"inspect eval {TASKS} --model uxbench/replay/{model}{flags} --model-role grader={grader}"
    done = finished(logs / model)
    todo = " ".join(f"uxbench/{t}" for t in HEADLINE if t not in done)
    if todo and run:
        command = shown.replace(TASKS, todo)
        full = [sys.executable, "-m", "inspect_ai", *shlex.split(command)[1:], "-T", f"data={records}"]
        full += ["--max-connections", "100", "--log-dir", str(logs / model), "--display", "none"]
        ran = subprocess.run(full, capture_output=True, text=True)
        done = finished(logs / model)
        if ran.returncode or len(done) < len(HEADLINE):
            raise SystemExit(f"{command} failed:\n{ran.stderr[-2000:]}")
    rows = []
    for log in sorted(done.values(), key=lambda log: list(HEADLINE).index(log.eval.task.split("/")[-1])):
        task = log.eval.task.split("/")[-1]
        metric = HEADLINE[task]
        values = metrics_of(log)
        ours = values[metric]
        paper = (paper_numbers.published_metrics(task, f"replay/{model}") or {}).get(metric)
        samples = log.results.completed_samples if log.results else 0
        cells = [task, model, percent(paper), f"{100 * ours:.2f}", difference(paper, ours), str(samples)]
        missing, stderr = no_row_count(log.location), percent(values[STDERR[task]])
        cells += [str(missing), stderr, f"{today}: `{shown} {source}`"]
        differs = paper is not None and difference(paper, ours) != "0.0"
        note = f"{task}, {model}: {why(task, model, paper, ours)}" if differs and paper is not None else None
        rows.append(("| " + " | ".join(cells) + " |", note))
    return rows


def replay_rows(
    args: argparse.Namespace, logs: Path, today: str, done: Callable[[list[str]], None]
) -> list[str]:
    """Replay every published model (`args.workers` at a time); `done` gets the section so far."""
    outputs: Path = args.replay.expanduser()
    models = sorted(p.stem for p in (outputs / VERDICTS_DIR / "responses").glob("*.jsonl"))
    first = [m for m in args.models.split(",") if m in models]  # in this order, the rest after
    models = first + [m for m in models if m not in first and not args.only]
    source = f"-T data={args.data}" if args.data else "-T data=DATA"
    rows: list[str] = []
    notes: list[str] = []
    head = [
        REPLAY_TITLE,
        "",
        "Command: `python bench/eval_report.py --replay OUTPUTS` with `UXBENCH_OUTPUTS=OUTPUTS` (the root "
        "of a copy of the published per-model outputs). Values in % (ours to two decimals, the "
        "difference between the one-decimal values); *no row*: records the model's published file "
        "lacks, counted as failed judgments. "
        + ("" if args.data else "`DATA`: stand-in records (see the script)."),
        "",
        "| task | model | paper | ours | difference | samples | no row | stderr | date: command |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    order = list(HEADLINE)
    with tempfile.TemporaryDirectory() as scratch:
        records = args.data or stand_in_data(outputs, Path(scratch) / "data")
        os.environ["UXBENCH_OUTPUTS"] = str(outputs)
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            run = not args.collect_only
            jobs = [pool.submit(replay_model, m, outputs, records, source, logs, today, run) for m in models]
            for job in as_completed(jobs):
                for row, note in job.result():
                    rows.append(row)
                    notes += [note] if note else []
                rows.sort(key=lambda row: (order.index(row.split(" | ")[0][2:]), row.split(" | ")[1]))
                notes.sort()
                done(section(head, rows, notes, not_run(models, rows) if args.collect_only else []))
    return section(head, rows, notes, not_run(models, rows) if args.collect_only else [])


def not_run(models: list[str], rows: list[str]) -> list[str]:
    replayed = {row.split(" | ")[1] for row in rows}
    return [m for m in models if m not in replayed]


def section(head: list[str], rows: list[str], notes: list[str], missing: list[str]) -> list[str]:
    """The replay section: the table, why any row differs from the paper, the models not replayed."""
    lines = [*head, *rows]
    lines += ["", "Differences from the paper:", *(f"- {n}" for n in notes)] if notes else []
    lines += ["", f"Not replayed yet (no finished log): {', '.join(missing)}."] if missing else []
    return lines


def sections(text: str) -> dict[str, list[str]]:
    """The results file's sections by title (`## …` lines), each with its lines."""
    found: dict[str, list[str]] = {}
    title = None
    for line in text.splitlines():
        if line.startswith("## "):
            title = line
        if title is not None:
            found.setdefault(title, []).append(line)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results_eval_report.md")
    parser.add_argument("--replay", type=Path, help="the root of your copy of the published outputs")
    parser.add_argument("--data", type=Path, help="your copy of the dataset (default: stand-in records)")
    parser.add_argument("--log-dir", type=Path, help="keep the replay's logs here (default: a temporary one)")
    parser.add_argument("--models", default="", help="replay these models first (comma-separated file stems)")
    parser.add_argument("--only", action="store_true", help="replay only the --models")
    parser.add_argument(
        "--collect-only", action="store_true", help="run nothing: rows from the finished logs in --log-dir"
    )
    parser.add_argument("--workers", type=int, default=1, help="models replayed at once")
    args = parser.parse_args()
    today = datetime.date.today().isoformat()
    kept = sections(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}

    def write(title: str, section: list[str]) -> None:
        kept[title] = section
        lines = ["# Evaluation Report runs", ""]
        for name in (SAMPLE_TITLE, REPLAY_TITLE):
            lines += [*kept[name], ""] if name in kept else []
        args.out.write_text(re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).rstrip() + "\n", encoding="utf-8")

    if args.replay:
        with tempfile.TemporaryDirectory() as scratch:
            logs = args.log_dir or Path(scratch)
            write(REPLAY_TITLE, replay_rows(args, logs, today, lambda section: write(REPLAY_TITLE, section)))
    else:
        write(SAMPLE_TITLE, sample_rows(today))
    print(args.out.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
