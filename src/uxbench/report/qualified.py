"""The report's grader qualifications: the grader_check logs it read (one table), and per
Task 2/3 row the GRM-equivalent headline its grader's check gives (`uxbench.qualification.match`,
math in `uxbench.qualification.correction`, docs/graders.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from uxbench.qualification.correction import DEFAULT_METHOD, LEVEL, METHOD_NAMES
from uxbench.qualification.match import (
    NOT_QUALIFIED,
    PERSON,
    PUBLISHED,
    USERS,
    Check,
    find_qualification,
    grm_equivalent,
)
from uxbench.report.grid import Cell, Grid
from uxbench.report.logs import CheckLog, Run
from uxbench.report.percent import pct
from uxbench.report.run_settings import shown_value
from uxbench.report.spec import TaskSpec
from uxbench.stats.intervals import Interval
from uxbench.stats.prevalence import qualification_size

GRM_GRADED = "graded by UXBench-GRM: the reference itself"
TASK_TITLES = {"task1": "Task 1", "task2": "Task 2", "task3": "Task 3"}
# what a grader_check compared with (Check.reference_kind); a person's check never corrects a Good%
REFERENCE_TITLES = {PUBLISHED: "UXBench-GRM", USERS: "users", PERSON: "a person"}
METHOD = (
    "GRM-equivalent: what UXBench-GRM would give, from the grader's sensitivity and specificity against "
    "UXBench-GRM's published grades (its newest grader_check of the same task and grader template): "
    f"p* = (p + spec − 1)/(sens + spec − 1), clipped to [0, 1], with a 95% interval by "
    f"{METHOD_NAMES[DEFAULT_METHOD]} that carries the uncertainty of p, sens and spec (its coverage is "
    "simulated in bench/results_coverage.md); no number when sens + spec − 1 < 0.2 (docs/graders.md)."
)
CHECKS_NOTE = (
    "Grader checks (uxbench/grader_check): each grader against a reference grade, on replies whose grade is "
    "known. Sens: reference-good replies it calls good; spec: reference-bad replies it does not; J = sens + "
    "spec − 1. Spread: the lowest and highest per-model sens and spec; a wide spread means the grader's "
    "errors depend on whose reply it grades, and the correction is then biased for some models."
)


@dataclass(frozen=True)
class Equivalent:
    """A Task 2/3 row's GRM-equivalent headline, or why there is none."""

    value: float | None
    interval: Interval | None
    note: str | None  # shown instead of a number
    check: CheckLog | None  # the qualifying check
    fields: dict[str, Any]  # leaderboard.json: `<headline>_grm_equiv`, `…_low`, `…_high`, `grader_check_log`
    records: int = 0  # the run's records, for the gold-set planner


def equivalent(
    spec: TaskSpec, run: Run, checks: list[CheckLog], paper_grader: bool, show_paths: bool
) -> Equivalent | None:
    """The GRM-equivalent of a graded run's headline (None for Task 1)."""
    if run.grading is None:
        return None
    why = run.grading.why_not()
    found = None if why else find_qualification([c.check for c in checks], run.grading)
    p, stderr = run.metrics.get(spec.headline.metric), run.metrics.get(spec.stderr)
    if p is None:
        found, why = None, f"no {spec.headline.title} to correct"
    elif found is None and why is None and paper_grader:
        why = GRM_GRADED
    fields, note = grm_equivalent(
        p or 0.0,
        stderr if stderr is not None else math.nan,
        found,
        spec.headline.metric,
        why or NOT_QUALIFIED,
    )
    check = next((c for c in checks if c.check is found), None)
    fields["grader_check_log"] = _log(check, show_paths)
    prefix = spec.headline.metric
    value, low, high = (fields[f"{prefix}_grm_equiv{end}"] for end in ("", "_low", "_high"))
    interval = (low, high) if low is not None and high is not None else None
    found_item = Equivalent(value, interval, note, check, fields, run.samples)
    fields["grm_equiv_plan"] = plan(found_item)
    return found_item


def _log(check: CheckLog | None, show_paths: bool) -> str | None:
    if check is None:
        return None
    return check.check.location if show_paths else check.name


def explanation(item: Equivalent) -> str:
    """The cell's tooltip: the numbers the estimate was made from."""
    if item.check is None:
        return ""
    q = item.check.check.qualification
    return (
        f"sens {q.sensitivity.value:.3f} (n {q.sensitivity.n}), spec {q.specificity.value:.3f} "
        f"(n {q.specificity.n}), J {q.youden:.3f}, from {item.check.name}; "
        f"{pct(LEVEL, 0)}% interval: {METHOD_NAMES[DEFAULT_METHOD]}. {plan(item) or ''}"
    ).rstrip()


def plan(item: Equivalent) -> str | None:
    """The gold-set planner's line: how many qualification replies would halve the interval
    (`uxbench.stats.prevalence.qualification_size`, docs/graders.md#how-many-qualification-replies)."""
    if item.check is None or item.value is None or item.interval is None or not item.records:
        return None
    q = item.check.check.qualification
    replies = q.sensitivity.n + q.specificity.n
    half = (item.interval[1] - item.interval[0]) / 2
    if not replies or half <= 0:
        return None
    share = q.sensitivity.n / replies
    need = qualification_size(
        half / 2, q.sensitivity.value, q.specificity.value, item.value, item.records, share
    )
    now = f"±{pct(half)} points from {replies} qualification replies"
    if need is None:
        return f"{now}; ±{pct(half / 2)} is out of reach: the run's own {item.records} records limit it."
    return f"{now}; ±{pct(half / 2)} would need about {need:,}."


# ---------------------------------------------------------------- the checks table


def _pct(value: float) -> str:
    return pct(value)


def _score(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.3f}"


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def reference_text(check: Check) -> str:
    task = TASK_TITLES.get(check.task, check.task)
    return f"{REFERENCE_TITLES.get(check.reference_kind, check.reference_kind)} · {task}"


def spread(check: Check) -> str:
    """The range of the per-model sensitivity and specificity: `sens 72–95, spec 60–88 (27 models)`."""
    sens, spec = check.per_model("sensitivity"), check.per_model("specificity")
    models = len(set(sens) | set(spec))
    if models < 2:
        return f"{models} model" if models else "–"
    parts = [
        f"{name} {pct(min(values.values()), 0)}–{pct(max(values.values()), 0)}"
        for name, values in (("sens", sens), ("spec", spec))
        if values
    ]
    return f"{', '.join(parts)} ({models} model{'s' if models > 1 else ''})"


def heterogeneity_text(check: Check) -> str:
    """`sens 0.41, spec 0.003`: the χ² p of each rate being the same across the check's models."""
    parts = [
        f"{name} {p:.2g}"
        for name, p in (
            ("sens", check.heterogeneity("sensitivity", "n_reference_good")),
            ("spec", check.heterogeneity("specificity", "n_reference_bad")),
        )
        if not math.isnan(p)
    ]
    return ", ".join(parts) or "–"


def _metric_cell(check: Check, name: str, shown: Callable[[float], str] = _pct) -> Cell:
    return Cell(shown(check.metric(name)), _number(check.metric(name)))


def checks_grid(checks: list[CheckLog], used: Counter[str], show_paths: bool) -> Grid:
    """One row per grader check, what the correction uses first; `used` counts the rows each
    check corrects, by its location."""
    titles = [
        "Grader",
        "Reference",
        "Sens %",
        "Spec %",
        "J",
        "Per-model spread",
        "Same across models? χ² p",
        "n (ref. good / bad)",
        "Agreement %",
        "κ",
        "AUROC",
        "Corrects",
        "Template",
        "Date (UTC)",
        "Log",
    ]
    notes = [
        "",
        "what the grader is checked against",
        "reference-good replies it calls good",
        "reference-bad replies it does not call good",
        "sens + spec − 1: what the correction divides by",
        "lowest–highest per published model",
        "p of Pearson's χ² test that sens (and spec) is one rate across the models: a small p says the "
        "correction's assumption fails for some",
        "replies graded",
        "verdicts equal to the reference's",
        "Cohen's κ with the reference",
        "of the grader's score against the reference verdict",
        "Task 2/3 rows it gives a GRM-equivalent number",
    ]
    rows = []
    for item in checks:
        check = item.check
        good, bad = check.metric("n_reference_good"), check.metric("n_reference_bad")
        replies = int(good + bad) if not math.isnan(good + bad) else None
        template = shown_value(check.template, show_paths) if check.template else "default"
        rows.append(
            [
                Cell(str(check.grader), str(check.grader)),
                Cell(reference_text(check), reference_text(check)),
                _metric_cell(check, "sensitivity"),
                _metric_cell(check, "specificity"),
                _metric_cell(check, "youden", _score),
                Cell(spread(check), spread(check)),
                Cell(heterogeneity_text(check), check.heterogeneity("sensitivity", "n_reference_good")),
                Cell(f"{replies} ({good:.0f} / {bad:.0f})" if replies is not None else "–", replies),
                _metric_cell(check, "agreement"),
                _metric_cell(check, "agreement_kappa", _score),
                _metric_cell(check, "score_auroc", _score),
                Cell(str(used[check.location]) if check.published else "–", used[check.location]),
                Cell(template, template),
                Cell(check.created[:16].replace("T", " "), check.created),
                Cell(check.location if show_paths else item.name, item.name),
            ]
        )
    return Grid(titles, rows, notes=notes, id="grader-checks-table", pin=0)


def checks_json(checks: list[CheckLog], used: Counter[str], show_paths: bool) -> list[dict[str, Any]]:
    out = []
    for item in checks:
        check = item.check
        scalars = {name: _number(v) for name, v in check.metrics.items() if ":" not in name}
        per_model: dict[str, dict[str, float | None]] = {}
        for name, value in check.metrics.items():
            statistic, sep, model = name.partition(":")
            if sep:
                per_model.setdefault(statistic, {})[model] = _number(value)
        out.append(
            {
                "grader": check.grader.model,
                "annotator": check.grader.annotator,
                "reference": check.reference_kind,
                "reference_dir": shown_value(check.reference, show_paths) if check.published else None,
                "task": check.task,
                "grader_template": shown_value(check.template, show_paths) if check.template else None,
                "created": check.created,
                "log": check.location if show_paths else item.name,
                "metrics": scalars,
                "per_model": per_model,
                "spread": spread(check),
                "heterogeneity_p": {
                    "sensitivity": _number(check.heterogeneity("sensitivity", "n_reference_good")),
                    "specificity": _number(check.heterogeneity("specificity", "n_reference_bad")),
                },
                "corrects": used[check.location],
            }
        )
    return out
