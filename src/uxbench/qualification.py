"""Which grader_check log qualifies a Task 2/3 run's grader, and the run's GRM-equivalent rate.

A run is corrected with a successful `uxbench/grader_check` log of the same task against the
published outputs, whose `--model` is the run's `grader` role model and whose
`grader_template` is the run's. The math is `uxbench.correction`; this module only reads
log headers (no samples).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspect_ai.log import EvalLog

from uxbench.correction import MIN_YOUDEN, Corrected, Proportion, Qualification, corrected_rate

GRADER_ROLE = "grader"
NOT_QUALIFIED = "grader not qualified"


def _task(log: EvalLog) -> str:
    return log.eval.task.rsplit("/", 1)[-1]


def _metric(log: EvalLog, name: str) -> float:
    metrics = log.results.scores[0].metrics if log.results and log.results.scores else {}
    return float(metrics[name].value) if name in metrics else float("nan")


def run_task(log: EvalLog) -> str | None:
    """task2 / task3 for a Task 2 / Task 3 run, else None."""
    return {"task2_eval": "task2", "task3_recovery": "task3"}.get(_task(log))


def run_grader(log: EvalLog) -> str | None:
    """The model bound to the run's `grader` role (None for self-graded runs and panels)."""
    role = (log.eval.model_roles or {}).get(GRADER_ROLE)
    return role.model if role is not None and not isinstance(role, list) else None


def qualifies(check: EvalLog, run: EvalLog) -> bool:
    """Whether `check` is a successful grader_check of `run`'s grader on `run`'s task and template."""
    facts = check.eval.metadata or {}
    return (
        _task(check) == "grader_check"
        and check.status == "success"
        and facts.get("reference") not in (None, "users")
        and facts.get("task") == run_task(run)
        and check.eval.model == run_grader(run)
        and check.eval.task_args.get("grader_template") == run.eval.task_args.get("grader_template")
    )


def find_qualification(checks: Iterable[EvalLog], run: EvalLog) -> EvalLog | None:
    """The newest qualifying grader_check log for `run`, or None."""
    matching = [check for check in checks if qualifies(check, run)]
    return max(matching, key=lambda check: check.eval.created, default=None)


def qualification_of(check: EvalLog) -> Qualification:
    """A grader_check log's sensitivity and specificity with their bases."""
    return Qualification(
        sensitivity=Proportion(_metric(check, "sensitivity"), int(_metric(check, "n_reference_good"))),
        specificity=Proportion(_metric(check, "specificity"), int(_metric(check, "n_reference_bad"))),
    )


def grm_equivalent(
    p: float, p_stderr: float, check: EvalLog | None, prefix: str = "good_pct"
) -> tuple[dict[str, Any], str | None]:
    """leaderboard.json fields for a run's raw rate p, and the note to show instead of a number (or None).

    Fields: `<prefix>_grm_equiv`, `…_low`, `…_high` (fractions; None without a number) and
    `grader_check_log` (the qualifying log's location, None when there is none).
    """
    corrected: Corrected | None = None
    if check is not None:
        corrected = corrected_rate(p, p_stderr, qualification_of(check))
    fields = {
        f"{prefix}_grm_equiv": corrected.estimate if corrected else None,
        f"{prefix}_grm_equiv_low": corrected.low if corrected else None,
        f"{prefix}_grm_equiv_high": corrected.high if corrected else None,
        "grader_check_log": check.location if check is not None else None,
    }
    if corrected is None:
        return fields, NOT_QUALIFIED
    if corrected.too_weak:
        return fields, f"grader too weak to correct (sens + spec − 1 = {corrected.youden:.2f} < {MIN_YOUDEN})"
    return fields, None
