"""Logs changed on purpose: a copy of a finished log with some of its fields rewritten."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log, write_eval_log


def rewritten(log: EvalLog, path: Path, change: Callable[[EvalLog], None]) -> Path:
    """A copy of `log` (read whole again) at `path`, after `change` has edited it in place."""
    copy = read_eval_log(log.location)
    change(copy)
    write_eval_log(copy, str(path))
    return path
