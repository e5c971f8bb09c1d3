"""Run an agent stage resumably: in chunks, harvesting finished samples from the Inspect logs.

Work directory layout (next to the stage's output file):

    settings.json        the model the stage runs with (a resume must match, unless forced)
    chunks/NNNNN.jsonl   the items given to one `inspect_ai.eval` call
    logs/NNNNN/*.eval    that chunk's Inspect logs (samples are flushed to them one by one)
    results/<log>.jsonl  the finished and the failed samples of one log, written atomically

A sample is done when a results file holds it finished. On start, logs not yet harvested
(left by a crash or Ctrl-C) are harvested first, so their finished samples are never run
again; samples still in flight when the process died were never finished and run again.
A sample whose model call keeps failing (after Inspect's own retries) is recorded as failed
with its error and left out of the output; the stage still finishes, counts it, and the next
run retries only the failed samples. The output lists results in input order, so it does
not depend on where a run was interrupted, nor on how many workers ran the chunks.

Chunks run on an `executors.Executor`: in this process, on local worker processes or as Ray
tasks. A chunk is plain data (`ChunkJob`) and `run_chunk` resumes it from its own logs, so
a chunk whose worker died is simply run again.
"""

from __future__ import annotations

import logging
import zipfile
from collections import Counter, deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.model import Model

from uxbench.pipeline.read.files import Location, location, read_rows, write_rows, write_stats
from uxbench.pipeline.run.executors import Executor
from uxbench.pipeline.run.manifest import settle
from uxbench.pipeline.run.models import ModelLike, describe, resolve
from uxbench.pipeline.run.settings import recorded
from uxbench.pipeline.stages.agents import log_results
from uxbench.pipeline.stages.judge import (
    JUDGE_PROBES,
    collect_judge,
    judge_items,
    judge_prompter,
    pipeline_judge,
)
from uxbench.pipeline.stages.miner import (
    MINER_PROBES,
    collect_miner,
    miner_items,
    miner_prompter,
    pipeline_miner,
)
from uxbench.pipeline.stages.qa import QA_PROBES, collect_qa, pipeline_qa, qa_items, qa_prompter
from uxbench.pipeline.stages.quality import case_gate_failure, gate_failure
from uxbench.pipeline.stages.rows import JudgedRow, MinedRow, SignalRow, valid_rows
from uxbench.pipeline.stages.usage import stage_usage
from uxbench.runtime import userfiles
from uxbench.runtime.errors import DataError
from uxbench.runtime.identity import rendered_digest

logger = logging.getLogger(__name__)
Rows = list[dict[str, Any]]
FAILED_EXAMPLES = 20  # failed items listed with their error in the stats
# what reading a log cut short raises: "EOCD not found" (ValueError), a bad zip, missing entries
UNREADABLE_LOG = (ValueError, KeyError, EOFError, OSError, zipfile.BadZipFile)


@dataclass(frozen=True)
class AgentStage:
    name: str
    task: Callable[..., Task]
    items: Callable[[dict[str, Any]], Any]
    collect: Callable[[Rows], tuple[Rows, dict[str, Any]]]
    row_model: type[SignalRow]  # what the stage's input rows look like
    prompter: Callable[[], Callable[[dict[str, Any]], str]]  # its prompt of an item (built-in files)
    probes: dict[str, dict[str, Any]]  # the items its prompts are rendered on for the run's identity
    skip: Callable[[dict[str, Any]], str | None] = lambda row: None  # why a row yields no item


AGENT_STAGES = {
    "miner": AgentStage(
        "miner", pipeline_miner, miner_items, collect_miner, SignalRow, miner_prompter, MINER_PROBES
    ),
    "judge": AgentStage(
        "judge",
        pipeline_judge,
        judge_items,
        collect_judge,
        MinedRow,
        judge_prompter,
        JUDGE_PROBES,
        case_gate_failure,
    ),
    "qa": AgentStage(
        "qa", pipeline_qa, qa_items, collect_qa, JudgedRow, qa_prompter, QA_PROBES, gate_failure
    ),
}
TASK_STAGES = {f"uxbench/pipeline_{name}": stage for name, stage in AGENT_STAGES.items()}


class StageInterrupted(DataError):
    """An agent stage stopped before every sample finished; finished samples are kept."""


def work_dir(out: str | Location) -> Location:
    out = location(out)
    return out.with_name(out.name.removesuffix(".jsonl") + ".work")


def harvest(log_file: Location, results_dir: Location) -> int:
    """Write the finished and failed samples of one log to its results file (once)."""
    from inspect_ai.log import read_eval_log

    target = results_dir / f"{log_file.stem}.jsonl"
    if target.exists():
        return 0
    try:
        log = read_eval_log(str(log_file), exclude_fields={"events", "messages"})
    except UNREADABLE_LOG as error:
        set_aside(log_file, error)
        return 0
    return write_rows(target, log_results(log))


def set_aside(log_file: Location, error: BaseException) -> Location:
    """Rename a log that cannot be read (cut short by a kill or a full disk) out of the way, kept
    for a look; its samples count as never run, so its chunk runs them again."""
    aside = log_file.with_name(log_file.name + ".broken")
    number = 1
    while aside.exists():
        number += 1
        aside = log_file.with_name(f"{log_file.name}.broken{number}")
    log_file.rename(aside)
    logger.warning(
        "uxbench pipeline: %s cannot be read (%s: %s; cut short by a kill or a full disk?); set aside "
        "as %s, and its chunk's samples run again",
        log_file,
        type(error).__name__,
        error,
        aside.name,
    )
    return aside


@dataclass
class Harvested:
    """Harvested samples: the finished ones by id (the first harvest wins if a sample was ever
    run twice), and the error of each that failed and never finished."""

    done: dict[str, dict[str, Any]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, files: Iterable[Location]) -> Harvested:
        harvested = cls()
        for path in sorted(files, key=str):
            for row in read_rows(path):
                if "failed" in row:
                    harvested.failed[row["id"]] = row["failed"]
                else:
                    harvested.done.setdefault(row["id"], row)
        for done in harvested.done:
            harvested.failed.pop(done, None)
        return harvested


def stage_settings(
    stage: AgentStage, model: ModelLike, eval_args: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What a resume of an agent stage must run with: the model, the generate settings its
    answers depend on (temperature, reasoning, …; not retries, timeouts or connections) and its
    prompts as sent: each rendered on the stage's probe items (runtime/identity.py), so a resume
    after an upgrade that changed a prompt file, or only how the code renders it (fences), would
    mix two wordings and stops, naming the prompt."""
    render = stage.prompter()
    prompts = {name: rendered_digest(lambda item=item: render(item)) for name, item in stage.probes.items()}
    return {"model": describe(model), "generate": recorded(eval_args or {}), "prompts": prompts}


# ---------------------------------------------------------------- one chunk


@dataclass(frozen=True)
class ChunkJob:
    """One chunk of a stage: its items file, its own log directory, the shared results directory.
    Plain data, so it can be sent to a worker process or a Ray task."""

    stage: str
    chunk: str
    logs: str
    results: str
    model: ModelLike
    eval_args: dict[str, Any]

    @property
    def name(self) -> str:
        return location(self.chunk).stem

    def state(self) -> tuple[list[str], Harvested]:
        """The chunk's item ids, and what its logs so far have finished or failed."""
        ids = [row["id"] for row in read_rows(self.chunk)]
        results = location(self.results)
        logs = sorted(location(self.logs).glob("*.eval"), key=str)
        return ids, Harvested.read(f for f in (results / f"{log.stem}.jsonl" for log in logs) if f.exists())


@dataclass(frozen=True)
class ChunkOutcome:
    status: str  # of the chunk's Inspect run ("success" when there was nothing left to run)
    error: str | None
    log: str | None
    harvested: int  # samples finished or failed in this attempt


def run_chunk(job: ChunkJob) -> ChunkOutcome:
    """Run one chunk as one Inspect eval with its own log, harvesting it afterwards.

    Resumable: the logs of an earlier attempt (a worker that died) are harvested first and
    only the samples they did not finish run again."""
    from inspect_ai import eval as inspect_eval

    logs, results = location(job.logs), location(job.results)
    for log_file in sorted(logs.glob("*.eval"), key=str):
        harvest(log_file, results)
    ids, earlier = job.state()
    remaining = [i for i in ids if i not in earlier.done]
    if not remaining:
        return ChunkOutcome("success", None, None, 0)
    # log_buffer=1: every finished sample reaches the log file at once, so a crash loses none;
    # fail_on_error=False: a sample that errors is recorded as failed, not a stop for the stage
    settings = {"log_buffer": 1, "display": "none", "score_display": False, "fail_on_error": False}
    settings |= job.eval_args
    if len(remaining) < len(ids):
        settings["sample_id"] = remaining
    task = AGENT_STAGES[job.stage].task(input=job.chunk)
    log = inspect_eval(task, model=resolve(job.model), log_dir=job.logs, **settings)[0]
    harvested = harvest(location(log.location), results) if log.location else 0
    error = log.error.message.strip() if log.error else None
    return ChunkOutcome(log.status, error, log.location, harvested)


# ---------------------------------------------------------------- every chunk of a stage

MAX_CRASHES = 3  # worker deaths after which a chunk's unfinished samples count as failed


def run_chunks(
    stage: str, jobs: list[ChunkJob], executor: Executor, advance: Callable[[int], None] | None = None
) -> None:
    """Run `jobs` on `executor`, up to its capacity at once; a chunk whose worker died runs
    again (resuming from its log), MAX_CRASHES times, and then its unfinished samples are
    recorded as failed. A chunk whose Inspect run ends in error stops the stage once the
    chunks in flight are done."""
    queue = deque(jobs)
    in_flight: dict[Future[ChunkOutcome], ChunkJob] = {}
    crashes: Counter[str] = Counter()
    stopped: ChunkOutcome | None = None
    while in_flight or (queue and stopped is None):
        while queue and stopped is None and len(in_flight) < executor.capacity:
            job = queue.popleft()
            in_flight[executor.submit(run_chunk, job)] = job
        finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        for future in finished:
            job = in_flight.pop(future)
            error = future.exception()
            if error is not None and not executor.crashed(error):
                raise executor.cause(error)
            if error is not None:
                crashes[job.name] += 1
                if crashes[job.name] < MAX_CRASHES:
                    queue.append(job)
                else:
                    _give_up(
                        job, f"the worker process running chunk {job.name} died {MAX_CRASHES} times ({error})"
                    )
                continue
            outcome = future.result()
            if advance is not None:
                advance(outcome.harvested)
            if outcome.status != "success" and stopped is None:
                stopped = outcome
    if stopped is not None:
        raise StageInterrupted(
            f"pipeline {stage} stage: an Inspect run ended with status {stopped.status} "
            f"({stopped.error or stopped.status}); log: {stopped.log}. Finished samples are kept: "
            "run the same command again to resume."
        )


def _give_up(job: ChunkJob, reason: str) -> None:
    """Record the chunk's unfinished samples as failed (the next run retries them)."""
    ids, earlier = job.state()
    failed = [{"id": i, "failed": reason} for i in ids if i not in earlier.done]
    write_rows(location(job.results) / f"{job.name}.crashed.jsonl", failed)


# ---------------------------------------------------------------- a stage


def check_sendable(model: ModelLike, executor: Executor) -> None:
    """An Inspect Model object (with its client and callbacks) stays in the process that made it."""
    if executor.remote and isinstance(model, Model):
        raise DataError(
            "worker processes and Ray tasks build the model themselves: give it by name "
            "(a ModelSpec), not as an Inspect Model object"
        )


def run_agent_stage(
    stage: AgentStage,
    input_path: str | Location,
    out: str | Location,
    model: ModelLike,
    chunk_size: int = 100,
    eval_args: dict[str, Any] | None = None,
    advance: Callable[[int], None] | None = None,
    on_items: Callable[[int, int], None] | None = None,
    force: bool = False,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Run `stage` on every item of `input_path` not yet finished (failed ones again), then write
    `out` and its stats; `force` resumes a work directory made with other settings. Chunks run
    on `executor` (default: one after the other in this process)."""
    executor = executor or Executor()
    check_sendable(model, executor)
    work = work_dir(out)
    chunks, logs, results = work / "chunks", work / "logs", work / "results"
    for directory in (chunks, logs, results):
        directory.mkdir(parents=True, exist_ok=True)
    settle(work / "settings.json", stage_settings(stage, model, eval_args), force, stage=stage.name)
    for log_file in sorted([*logs.glob("*.eval"), *logs.glob("*/*.eval")], key=str):
        harvest(log_file, results)
    items: Rows = []
    skipped: Counter[str] = Counter()
    for row in valid_rows(input_path, stage.row_model):
        reason = stage.skip(row)
        if reason is not None:
            skipped[reason] += 1
        items.extend(stage.items(row))
    if not items:
        reasons = ", ".join(f"{k} {v}" for k, v in skipped.most_common()) or "the file holds no rows"
        raise DataError(
            f"pipeline {stage.name} stage: nothing to do in {input_path} ({reasons}); "
            "no test case can come out of this run"
        )
    done = Harvested.read(results.glob("*.jsonl")).done
    pending = [item for item in items if item["id"] not in done]
    if on_items is not None:
        on_items(len(items), len(items) - len(pending))
    if pending:
        resolve(model)  # a model that cannot be set up stops here, not in every worker
    first = len(list(chunks.glob("*.jsonl")))
    jobs = []
    for number, start in enumerate(range(0, len(pending), chunk_size), start=first):
        chunk = chunks / f"{number:05d}.jsonl"
        write_rows(chunk, pending[start : start + chunk_size])
        jobs.append(
            ChunkJob(stage.name, str(chunk), str(logs / chunk.stem), str(results), model, eval_args or {})
        )
    run_chunks(stage.name, jobs, executor, advance)
    final = Harvested.read(results.glob("*.jsonl"))
    missing = [i["id"] for i in items if i["id"] not in final.done and i["id"] not in final.failed]
    if missing:
        raise StageInterrupted(
            f"pipeline {stage.name} stage: {len(missing)} items unfinished (first: {missing[0]})"
        )
    failed = [(item["id"], final.failed[item["id"]]) for item in items if item["id"] not in final.done]
    if len(failed) == len(items):
        raise StageInterrupted(
            f"pipeline {stage.name} stage: all {len(items)} items failed (first: {failed[0][0]}: "
            f"{failed[0][1]}); fix the cause (model name, key, endpoint) and run again"
        )
    rows, counts = stage.collect([final.done[item["id"]] for item in items if item["id"] in final.done])
    write_rows(out, rows)
    counts = {
        "items": len(items),
        "not_run": dict(skipped.most_common()),
        **counts,
        "failed": len(failed),
        "failed_examples": [{"id": i, "error": e} for i, e in failed[:FAILED_EXAMPLES]],
        "model_usage": stage_usage(logs),
    }
    write_stats(out, input_path, stage.name, counts)
    return counts


def export_logs(log_files: list[str], out: str | Path) -> dict[str, Any]:
    """Inspect logs of one agent stage → the next stage's JSONL (what `uxbench pipeline export` does)."""
    from inspect_ai.log import read_eval_log

    stage: AgentStage | None = None
    results: dict[str, dict[str, Any]] = {}
    failed: set[str] = set()
    inputs: list[str] = []
    for name in log_files:
        if "://" not in name:  # a local file the user named: refused, not waited on, if special
            userfiles.check_regular(name, "export")
        try:
            log = read_eval_log(name, exclude_fields={"events", "messages"})
        except UNREADABLE_LOG as error:
            raise DataError(
                f"export {name}: not a readable Inspect log ({type(error).__name__}: {error})"
            ) from None
        found = TASK_STAGES.get(log.eval.task_registry_name or log.eval.task)
        if found is None:
            raise DataError(f"{name}: a log of {log.eval.task}, not of a pipeline agent stage")
        if stage is not None and found is not stage:
            raise DataError(f"{name}: a {found.name} log among {stage.name} logs; export one stage at a time")
        stage = found
        inputs.append(str(log.eval.task_args.get("input", "")))
        for result in log_results(log):
            if "failed" in result:
                failed.add(result["id"])
            else:
                results.setdefault(result["id"], result)
    if stage is None:
        raise DataError("no log files given")
    rows, counts = stage.collect(list(results.values()))
    counts["failed"] = len(failed - results.keys())
    write_rows(out, rows)
    upstream = inputs[0] if len(set(inputs)) == 1 and location(inputs[0]).exists() else None
    write_stats(out, upstream, stage.name, counts)
    return {"stage": stage.name, **counts}
