"""A paused person's log: what they answered, nothing that reads as a crash.

Inspect ends a run the person paused as a cancel (`runtime._inspect.stop_task`), which logs the
items still on the page, never answered, as samples with a `CancelledError` and its traceback,
and the run's error as "Task cancelled by user (abort)". At the run's end the log is rewritten
without those samples (`inspect eval-retry` runs every sample missing from a log, as it does
the ones the cancel never started) and with the pause as its error, which the report reads to
list the log as "paused, resumed in …" (docs/human.md#pausing).
"""

from __future__ import annotations

from inspect_ai.log import EvalLog, EvalSample, read_eval_log, write_eval_log

from uxbench.runtime._inspect import is_cancellation_message
from uxbench.runtime.roles import HUMAN

PAUSED_BY = "Paused by "  # how a paused log's error begins: `Paused by rater1 (uxbench/human): …`


def paused_error(annotator: str, unanswered: int) -> str:
    items = f"{unanswered} item{'s' * (unanswered != 1)}"
    return f"{PAUSED_BY}{annotator} ({HUMAN}): {items} on the page not answered, left for inspect eval-retry"


def paused_by(message: str | None) -> str | None:
    """The person who paused a log, read from its error (`paused_error`), or None."""
    if not message or not message.startswith(PAUSED_BY):
        return None
    return message.removeprefix(PAUSED_BY).split(f" ({HUMAN})", 1)[0] or None


def _answered(samples: list[EvalSample]) -> list[EvalSample]:
    return [s for s in samples if s.error is None or not is_cancellation_message(s.error.message)]


def tidy_paused_log(log: EvalLog, annotator: str) -> int:
    """Rewrite a paused run's log (and `log`, where it holds samples) without its unanswered samples
    and with the pause as its error; the number of samples dropped."""
    if not log.location or log.error is None:
        return 0
    full = read_eval_log(log.location)
    kept = _answered(full.samples or [])
    dropped = len(full.samples or []) - len(kept)
    assert full.error is not None  # the same log, read back
    message = paused_error(annotator, dropped)
    full.samples = kept
    full.error = full.error.model_copy(update={"message": message, "traceback": "", "traceback_ansi": ""})
    write_eval_log(full, log.location)
    if log.samples is not None:
        log.samples = _answered(log.samples)
    log.error = full.error
    return dropped
