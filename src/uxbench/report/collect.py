"""Pick the logs a report is built from: the newest complete, successful log per
(task, model, task arguments, grader), and say why every other log was left out.

Logs are read through Inspect's own API (`list_eval_logs`, `read_eval_log` with
`header_only`), so both log formats work and samples are never loaded.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from uxbench.ensemble import grader_roles
from uxbench.errors import DataError
from uxbench.report.spec import TASKS

GRADER_ROLE = "grader"


@dataclass(frozen=True)
class Run:
    """One log's facts and metrics, as the report uses them."""

    log: str
    task: str
    model: str
    grader: str | None
    task_args: dict[str, Any]
    created: str
    samples: int  # records scored (completed samples / epochs)
    partial: str | None  # why the log does not cover its whole dataset, or None
    metrics: dict[str, float | None]
    breakdown: dict[str, dict[str, float | None]] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """What makes two runs the same experiment."""
        return json.dumps([self.task, self.model, self.task_args, self.grader], sort_keys=True, default=str)


@dataclass(frozen=True)
class Skipped:
    log: str
    task: str
    model: str
    reason: str


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _grader(log: EvalLog) -> str | None:
    """The grader model; a model that graded its own replies (`-T self_grade=true`) is marked so."""
    roles = log.eval.model_roles or {}
    role = roles.get(GRADER_ROLE)
    if isinstance(role, list):
        return ", ".join(config.model for config in role)
    if role is None and log.eval.task_args.get("self_grade"):
        return f"{log.eval.model} (self-graded)"
    # a grader panel (uxbench.ensemble): grader, grader_2, …
    panel = [roles[name] for name in grader_roles(roles)]
    return ", ".join(config.model for config in panel if not isinstance(config, list)) or None


def _metrics(log: EvalLog) -> tuple[dict[str, float | None], dict[str, dict[str, float | None]]]:
    """Scalar metrics by name, and `key:value` breakdown metrics grouped by key.

    Metrics of all scorers are merged; the first scorer wins a name clash."""
    scalars: dict[str, float | None] = {}
    groups: dict[str, dict[str, float | None]] = {}
    for score in log.results.scores if log.results else []:
        for name, item in score.metrics.items():
            key, sep, group = name.partition(":")
            if sep:
                groups.setdefault(key, {}).setdefault(group, _number(item.value))
            else:
                scalars.setdefault(name, _number(item.value))
    return scalars, groups


def _partial(log: EvalLog) -> str | None:
    """Why a successful log does not cover its whole dataset, or None."""
    if not log.results:
        return None
    ran, completed = log.results.total_samples, log.results.completed_samples
    expected = (log.eval.dataset.samples or 0) * (log.eval.config.epochs or 1)
    if ran < expected:
        return f"partial: ran {ran} of {expected} samples (--limit or --sample-id)"
    if completed < ran:
        return f"partial: {completed} of {ran} samples completed"
    return None


def _problem(log: EvalLog) -> str | None:
    """Why a log cannot be used at all, or None."""
    if log.status == "error":
        message = (log.error.message if log.error else "").strip().splitlines()
        return "errored" + (f": {message[0][:200]}" if message else "")
    if log.status == "cancelled":
        return "cancelled"
    if log.status != "success":
        return f"not finished (status {log.status})"
    if not log.results or not log.results.scores:
        return "no scores"
    return None


def _local(uri: str) -> str:
    return unquote(uri.removeprefix("file://")) if uri.startswith("file://") else uri


def log_paths(log_dirs: list[str | Path]) -> list[str]:
    """Every log file under the given directories (or named directly), each once."""
    paths: list[str] = []
    for entry in log_dirs:
        path = Path(entry).expanduser()
        if path.is_file():
            paths.append(str(path.resolve()))
        elif path.is_dir():
            paths.extend(_local(info.name) for info in list_eval_logs(str(path)))
        else:
            raise DataError(f"{entry}: no such log directory or file")
    return list(dict.fromkeys(paths))


def read_run(path: str) -> Run | Skipped:
    """The run a log holds, or why it is skipped."""
    try:
        log = read_eval_log(path, header_only=True)
    except Exception as error:  # a truncated or foreign file must not stop the report
        return Skipped(path, "?", "?", f"unreadable ({type(error).__name__}: {str(error)[:200]})")
    task = log.eval.task.rsplit("/", 1)[-1]
    problem = None if task in TASKS else "not a UXBench task"
    problem = problem or _problem(log)
    if problem:
        return Skipped(path, task, log.eval.model, problem)
    scalars, groups = _metrics(log)
    return Run(
        log=path,
        task=task,
        model=log.eval.model,
        grader=_grader(log) if TASKS[task].graded else None,  # a grader bound by eval-set is unused
        task_args=dict(log.eval.task_args),
        created=log.eval.created,
        samples=(log.results.completed_samples if log.results else 0) // (log.eval.config.epochs or 1),
        partial=_partial(log),
        metrics=scalars,
        breakdown=groups,
    )


def collect(log_dirs: list[str | Path], include_partial: bool = False) -> tuple[list[Run], list[Skipped]]:
    """The runs to report (newest per experiment) and the logs left out, with reasons."""
    runs: list[Run] = []
    skipped: list[Skipped] = []
    for path in log_paths(log_dirs):
        item = read_run(path)
        if isinstance(item, Skipped):
            skipped.append(item)
        elif item.partial and not include_partial:
            reason = f"{item.partial}; --include-partial keeps it"
            skipped.append(Skipped(path, item.task, item.model, reason))
        else:
            runs.append(item)
    chosen: dict[str, Run] = {}
    # complete runs beat partial ones, then the newest wins
    for run in sorted(runs, key=lambda r: (r.partial is None, r.created, r.log), reverse=True):
        if run.key not in chosen:
            chosen[run.key] = run
            continue
        newer = chosen[run.key]
        skipped.append(Skipped(run.log, run.task, run.model, f"superseded by {Path(newer.log).name}"))
    return sorted(chosen.values(), key=lambda r: (r.task, r.model)), skipped
