"""Shared pipeline test helpers: small set targets, a dry-run reference run, output comparison."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai.log import read_eval_log

from uxbench.cli import main
from uxbench.data.dataset import RELEASE_FILES
from uxbench.pipeline.run.runner import STAGE_FILES

SMALL_TARGETS = {"task1_judge_bad": 40, "task1_judge_good": 40, "task2_eval": 60, "task3_recovery": 15}
TARGETS_ARG = ",".join(f"{k}={v}" for k, v in SMALL_TARGETS.items())
OUTPUTS = [*RELEASE_FILES.values(), *STAGE_FILES.values(), "stats.json"]
# a failure case as the miner answers it, for a conversation user / assistant / user / assistant
CASE = {
    "failed_turn": 1,
    "query_turn": 0,
    "dimension": "事实性错误",
    "scenario": "信息与知识查询",
    "signal_type": "explicit_complaint",
    "signal_confidence": "high",
    "sentiment": "explicit",
    "explanation": "The reply named the wrong city.",
    "representativeness": "high",
    "confidence": 0.9,
}


def write_csv(path: Path, rows: list[dict[str, Any]]) -> Path:
    """A CSV file with a header of the first row's keys."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def dry_run(raw: Path, out: Path, *extra: str) -> int:
    """`uxbench pipeline run RAW --out OUT --dry-run` with the small targets, in one process
    unless `extra` says otherwise; the exit code."""
    return main(
        ["pipeline", "run", str(raw), "--out", str(out), "--dry-run", "--no-progress"]
        + ["--targets", TARGETS_ARG, "--workers", "1", *extra]
    )


def completed_per_sample(run_dir: Path) -> Counter[str]:
    """How often each sample finished, over every Inspect log the run wrote."""
    counts: Counter[str] = Counter()
    for log_file in run_dir.glob("*.work/logs/*/*.eval"):
        log = read_eval_log(str(log_file), exclude_fields={"events", "messages"})
        counts.update(f"{log.eval.task}:{s.id}" for s in log.samples or [] if s.error is None and s.scores)
    return counts


def same_outputs(a: Path, b: Path) -> None:
    for name in OUTPUTS:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
