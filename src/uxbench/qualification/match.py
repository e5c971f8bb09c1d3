"""Which grader_check log qualifies a Task 2/3 run's grader, and the run's GRM-equivalent rate.

A run is corrected with a successful `uxbench/grader_check` log of the same task against the
published outputs whose grader is the run's one grader (`--model` there, the `grader` role
here: the same model name and, for a person, the same `-M annotator`) and whose
`grader_template` is the run's. A Task 3 run must also be graded as grader_check grades Task
3, with `grm_context=paper`. Self-graded runs and grader panels are never corrected (see
`why_not`). The math is `uxbench.qualification.correction`.

Both sides are read from log headers into plain facts (`Check`, `Grading`), so the report
reads each log once and the matching is pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.log import EvalLog

from uxbench.qualification.correction import MIN_YOUDEN, Corrected, Proportion, Qualification, corrected_rate
from uxbench.runtime.roles import HUMAN, grader_roles
from uxbench.stats.prevalence import homogeneity

GRADER_CHECK = "grader_check"
USERS = "users"  # grader_check's reference=users: the users' thumbs, not UXBench-GRM
PUBLISHED = "published"  # reference=<dir>: UXBench-GRM's published grades
PERSON = "person"  # reference=<file>.jsonl: a person's verdicts (uxbench people export)
RUN_TASKS = {"task2_eval": "task2", "task3_recovery": "task3"}
NOT_QUALIFIED = "grader not qualified"
SELF_GRADED = "self-graded: not corrected"
PANEL = "grader panel: not corrected (grader_check qualifies one grader)"


def task_name(log: EvalLog) -> str:
    """The task's name without its package (`uxbench/task2_eval` → `task2_eval`)."""
    return log.eval.task.rsplit("/", 1)[-1]


def annotator_of(model: str, args: Mapping[str, Any] | None) -> str | None:
    """The person behind `uxbench/human` (its `-M annotator`); None for any other model."""
    value = (args or {}).get("annotator") if model == HUMAN else None
    return None if value is None else str(value)


@dataclass(frozen=True)
class Grader:
    """One grader: its model name and, for a person, who it is."""

    model: str
    annotator: str | None = None

    def __str__(self) -> str:
        return f"{self.model} · {self.annotator}" if self.annotator else self.model


@dataclass(frozen=True)
class Grading:
    """How a Task 2/3 run was graded, as far as a qualification has to match it."""

    task: str  # task2 / task3
    graders: tuple[Grader, ...]  # the grader roles' models in role order; () when self-graded
    template: str | None  # -T grader_template
    grm_context: str | None = None  # Task 3's -T grm_context

    @classmethod
    def of(cls, log: EvalLog) -> Grading | None:
        """The grading of a Task 2/3 log (None for any other task)."""
        task = RUN_TASKS.get(task_name(log))
        if task is None:
            return None
        roles = log.eval.model_roles or {}
        graders = tuple(
            Grader(config.model, annotator_of(config.model, config.args))
            for role in grader_roles(roles)
            for config in (roles[role] if isinstance(roles[role], list) else [roles[role]])
        )
        args = log.eval.task_args
        return cls(task, graders, args.get("grader_template"), args.get("grm_context"))

    @property
    def self_graded(self) -> bool:
        return not self.graders

    def why_not(self) -> str | None:
        """Why no grader_check can qualify this grading, or None when one can."""
        if self.self_graded:
            return SELF_GRADED  # the grader's errors on its own replies are the bias a check cannot see
        if len(self.graders) > 1:
            return PANEL
        if self.task == "task3" and (self.grm_context or "paper") != "paper":
            return (
                f"{NOT_QUALIFIED} for grm_context={self.grm_context} (grader_check grades as the paper did)"
            )
        return None


@dataclass(frozen=True)
class Check:
    """A successful grader_check log, as far as the report and the correction read it (its header)."""

    location: str
    created: str
    grader: Grader
    reference: str  # users, or the root of the published outputs
    task: str  # task1 (reference=users), task2, task3
    template: str | None
    metrics: Mapping[str, float] = field(default_factory=dict)  # every metric, NaN where it has none
    kind: str | None = None  # users, published or person (None in logs before it was recorded)

    @classmethod
    def of(cls, log: EvalLog) -> Check | None:
        """The facts of a successful grader_check log; None for any other log."""
        if task_name(log) != GRADER_CHECK or log.status != "success" or not log.results:
            return None
        facts = log.eval.metadata or {}
        metrics = {
            name: float(item.value) if isinstance(item.value, int | float) else math.nan
            for score in log.results.scores[:1]
            for name, item in score.metrics.items()
        }
        return cls(
            location=log.location,
            created=log.eval.created,
            grader=Grader(log.eval.model, annotator_of(log.eval.model, log.eval.model_args)),
            reference=str(facts.get("reference", USERS)),
            task=str(facts.get("task", "task1")),
            template=log.eval.task_args.get("grader_template"),
            metrics=metrics,
            kind=facts.get("reference_kind"),
        )

    @property
    def reference_kind(self) -> str:
        """users, published (UXBench-GRM's grades) or person (a person's verdicts)."""
        return self.kind or (USERS if self.reference == USERS else PUBLISHED)

    @property
    def published(self) -> bool:
        """Graded against UXBench-GRM's published grades (not the users' thumbs, not a person):
        only such a check can turn a Good% into a GRM-equivalent one."""
        return self.reference_kind == PUBLISHED

    def metric(self, name: str) -> float:
        return self.metrics.get(name, math.nan)

    @property
    def qualification(self) -> Qualification:
        """Sensitivity and specificity with their bases."""
        return Qualification(
            sensitivity=Proportion(self.metric("sensitivity"), _count(self.metric("n_reference_good"))),
            specificity=Proportion(self.metric("specificity"), _count(self.metric("n_reference_bad"))),
        )

    def heterogeneity(self, name: str, base: str) -> float:
        """χ² p that the per-model `name` (sensitivity over `base` = n_reference_good, or specificity
        over n_reference_bad) is one rate across the models the check graded; NaN under two models."""
        shares, totals = self.per_model(name), self.per_model(base)
        models = sorted(set(shares) & set(totals))
        return homogeneity([shares[m] for m in models], [totals[m] for m in models])

    def per_model(self, name: str) -> dict[str, float]:
        """A statistic per published model (`sensitivity:<model>`), where it has a value."""
        prefix = f"{name}:"
        return {
            key[len(prefix) :]: value
            for key, value in self.metrics.items()
            if key.startswith(prefix) and not math.isnan(value)
        }


def _count(value: float) -> int:
    return 0 if math.isnan(value) else int(value)


def qualifies(check: Check, grading: Grading) -> bool:
    """Whether `check` qualifies the grader of a run graded as `grading`."""
    return (
        grading.why_not() is None
        and check.published
        and check.task == grading.task
        and check.grader == grading.graders[0]
        and check.template == grading.template
    )


def find_qualification(checks: Iterable[Check], grading: Grading) -> Check | None:
    """The newest qualifying check, or None."""
    matching = [check for check in checks if qualifies(check, grading)]
    return max(matching, key=lambda check: check.created, default=None)


def grm_equivalent(
    p: float,
    p_stderr: float,
    check: Check | None,
    prefix: str = "good_pct",
    unqualified: str = NOT_QUALIFIED,
) -> tuple[dict[str, Any], str | None]:
    """leaderboard.json fields for a run's raw rate p, and the note to show instead of a number (or None).

    Fields: `<prefix>_grm_equiv`, `…_low`, `…_high` (fractions; None without a number) and
    `grader_check_log` (the qualifying log's location, None when there is none). `prefix` is
    the run's headline metric (`good_pct`, Task 3's `recovery_rate`); `unqualified` the note
    without a check (`Grading.why_not()` says why a run cannot have one).
    """
    corrected: Corrected | None = None
    if check is not None:
        corrected = corrected_rate(p, p_stderr, check.qualification)
    fields = {
        f"{prefix}_grm_equiv": corrected.estimate if corrected else None,
        f"{prefix}_grm_equiv_low": corrected.low if corrected else None,
        f"{prefix}_grm_equiv_high": corrected.high if corrected else None,
        "grader_check_log": check.location if check is not None else None,
    }
    if corrected is None:
        return fields, unqualified
    if math.isnan(corrected.youden):
        return (
            fields,
            "grader too weak to correct (its check had no reference-good or no reference-bad reply)",
        )
    if corrected.too_weak:
        return fields, f"grader too weak to correct (sens + spec − 1 = {corrected.youden:.2f} < {MIN_YOUDEN})"
    return fields, None
