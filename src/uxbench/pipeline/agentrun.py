"""Run an agent stage resumably: in chunks, harvesting finished samples from the Inspect logs.

Work directory layout (next to the stage's output file):

    chunks/NNNNN.jsonl   the items given to one `inspect_ai.eval` call
    logs/*.eval          its Inspect log (samples are flushed to it one by one)
    results/<log>.jsonl  the finished samples harvested from that log, written atomically

A sample is done when a results file holds it. On start, logs not yet harvested (left by
a crash or Ctrl-C) are harvested first, so their finished samples are never run again;
samples still in flight when the process died were never finished and run again. The
output lists results in input order, so it does not depend on where a run was interrupted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.model import Model

from uxbench.errors import DataError
from uxbench.pipeline.agents import log_results
from uxbench.pipeline.files import read_rows, write_rows, write_stats
from uxbench.pipeline.judge import collect_judge, judge_items, pipeline_judge
from uxbench.pipeline.miner import collect_miner, miner_items, pipeline_miner
from uxbench.pipeline.qa import collect_qa, pipeline_qa, qa_items
from uxbench.pipeline.quality import case_gate_failure, gate_failure

Rows = list[dict[str, Any]]


@dataclass(frozen=True)
class AgentStage:
    name: str
    task: Callable[..., Task]
    items: Callable[[dict[str, Any]], Any]
    collect: Callable[[Rows], tuple[Rows, dict[str, Any]]]
    skip: Callable[[dict[str, Any]], str | None] = lambda row: None  # why a row yields no item


AGENT_STAGES = {
    "miner": AgentStage("miner", pipeline_miner, miner_items, collect_miner),
    "judge": AgentStage("judge", pipeline_judge, judge_items, collect_judge, case_gate_failure),
    "qa": AgentStage("qa", pipeline_qa, qa_items, collect_qa, gate_failure),
}
TASK_STAGES = {f"uxbench/pipeline_{name}": stage for name, stage in AGENT_STAGES.items()}


class StageInterrupted(DataError):
    """An agent stage stopped before every sample finished; finished samples are kept."""


def work_dir(out: str | Path) -> Path:
    out = Path(out)
    return out.with_name(out.name.removesuffix(".jsonl") + ".work")


def harvest(log_file: Path, results_dir: Path) -> int:
    """Write the finished samples of one log to its results file (once)."""
    from inspect_ai.log import read_eval_log

    target = results_dir / f"{log_file.stem}.jsonl"
    if target.exists():
        return 0
    log = read_eval_log(str(log_file), exclude_fields={"events", "messages"})
    return write_rows(target, log_results(log))


def finished(results_dir: Path) -> dict[str, dict[str, Any]]:
    """Every harvested sample by id (the first harvest wins if a sample was ever run twice)."""
    done: dict[str, dict[str, Any]] = {}
    for path in sorted(results_dir.glob("*.jsonl")):
        for row in read_rows(path):
            done.setdefault(row["id"], row)
    return done


def run_agent_stage(
    stage: AgentStage,
    input_path: str | Path,
    out: str | Path,
    model: str | Model,
    chunk_size: int = 100,
    eval_args: dict[str, Any] | None = None,
    advance: Callable[[int], None] | None = None,
    on_items: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run `stage` on every item of `input_path` not yet finished, then write `out` and its stats."""
    from inspect_ai import eval as inspect_eval

    work = work_dir(out)
    chunks, logs, results = work / "chunks", work / "logs", work / "results"
    for directory in (chunks, logs, results):
        directory.mkdir(parents=True, exist_ok=True)
    for log_file in sorted(logs.glob("*.eval")):
        harvest(log_file, results)
    items: Rows = []
    skipped: Counter[str] = Counter()
    for row in read_rows(input_path):
        reason = stage.skip(row)
        if reason is not None:
            skipped[reason] += 1
        items.extend(stage.items(row))
    done = finished(results)
    pending = [item for item in items if item["id"] not in done]
    if on_items is not None:
        on_items(len(items), len(items) - len(pending))
    for start in range(0, len(pending), chunk_size):
        batch = pending[start : start + chunk_size]
        chunk = chunks / f"{len(list(chunks.glob('*.jsonl'))):05d}.jsonl"
        write_rows(chunk, batch)
        # log_buffer=1: every finished sample reaches the log file at once, so a crash loses none
        settings = {"log_buffer": 1, "display": "none", "score_display": False, **(eval_args or {})}
        log = inspect_eval(stage.task(input=str(chunk)), model=model, log_dir=str(logs), **settings)[0]
        harvested = harvest(Path(log.location), results) if log.location else 0
        if advance is not None:
            advance(harvested)
        if log.status != "success":
            reason = log.error.message if log.error else log.status
            raise StageInterrupted(
                f"pipeline {stage.name} stage stopped ({reason}); its {harvested} finished samples of this "
                "chunk are kept. Run the same command again to resume."
            )
    done = finished(results)
    missing = [item["id"] for item in items if item["id"] not in done]
    if missing:
        raise StageInterrupted(
            f"pipeline {stage.name} stage: {len(missing)} items unfinished (first: {missing[0]})"
        )
    rows, counts = stage.collect([done[item["id"]] for item in items])
    write_rows(out, rows)
    write_stats(
        out, input_path, stage.name, {"items": len(items), "not_run": dict(skipped.most_common()), **counts}
    )
    return counts


def export_logs(log_files: list[str], out: str | Path) -> dict[str, Any]:
    """Inspect logs of one agent stage → the next stage's JSONL (what `uxbench pipeline export` does)."""
    from inspect_ai.log import read_eval_log

    stage: AgentStage | None = None
    results: dict[str, dict[str, Any]] = {}
    inputs: list[str] = []
    for name in log_files:
        log = read_eval_log(name, exclude_fields={"events", "messages"})
        found = TASK_STAGES.get(log.eval.task_registry_name or log.eval.task)
        if found is None:
            raise DataError(f"{name}: a log of {log.eval.task}, not of a pipeline agent stage")
        if stage is not None and found is not stage:
            raise DataError(f"{name}: a {found.name} log among {stage.name} logs; export one stage at a time")
        stage = found
        inputs.append(str(log.eval.task_args.get("input", "")))
        for result in log_results(log):
            results.setdefault(result["id"], result)
    if stage is None:
        raise DataError("no log files given")
    rows, counts = stage.collect(list(results.values()))
    write_rows(out, rows)
    upstream = inputs[0] if len(set(inputs)) == 1 and Path(inputs[0]).exists() else None
    write_stats(out, upstream, stage.name, counts)
    return {"stage": stage.name, **counts}
