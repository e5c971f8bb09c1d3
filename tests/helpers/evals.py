"""Running an eval in a test: in this process, quietly, its log under pytest's temporary
directory (the session's `INSPECT_LOG_DIR` unless `log_dir` is given), every log's status checked
(`inspect eval` and `eval()` return normally even when a run errors)."""

from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog


def run_evals(
    tasks: Any, log_dir: Path | str | None = None, expect: str | None = "success", **options: Any
) -> list[EvalLog]:
    """Every log of `eval(tasks, **options)`; with `expect`, each must have that status."""
    if log_dir is not None:
        options["log_dir"] = str(log_dir)
    logs = eval(tasks, display="none", **options)
    if expect is not None:
        assert all(log.status == expect for log in logs), [(log.status, log.error) for log in logs]
    return logs


def run_eval(
    task: Any, log_dir: Path | str | None = None, expect: str | None = "success", **options: Any
) -> EvalLog:
    """The one log of `eval(task, **options)`; with `expect`, it must have that status."""
    (log,) = run_evals(task, log_dir, expect, **options)
    return log
