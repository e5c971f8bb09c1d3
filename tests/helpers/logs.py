"""Logs changed on purpose: a copy of a finished log with some of its fields rewritten."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

from inspect_ai.log import EvalLog, read_eval_log, write_eval_log


def rewritten(log: EvalLog, path: Path, change: Callable[[EvalLog], None]) -> Path:
    """A copy of `log` (read whole again) at `path`, after `change` has edited it in place.

    The copy stands for another run, so it gets an eval id of its own: files that share one are
    one run (a log and its re-scored copy), which the report shows once."""
    copy = read_eval_log(log.location)
    copy.eval.eval_id = uuid.uuid4().hex
    change(copy)
    write_eval_log(copy, str(path))
    return path
