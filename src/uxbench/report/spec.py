"""What the report shows for each UXBench task: headline metric, its standard error, and
the other columns, in the order a reader wants them (metric names as the scorers log them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["pct", "score", "delta"]


@dataclass(frozen=True)
class Column:
    metric: str
    title: str
    kind: Kind = "pct"


@dataclass(frozen=True)
class TaskSpec:
    name: str  # the task's registry name without the `uxbench/` prefix
    title: str
    headline: Column
    stderr: str  # metric holding the headline's standard error
    columns: tuple[Column, ...]
    graded: bool  # scored by a grader model (the `grader` role)
    # breakdown key -> what its per-group value means, for chart and table captions
    breakdown_meaning: dict[str, str]
    # the settings of the paper's runs (docs/protocol.md): its numbers are shown only beside
    # rows run the same way
    paper_settings: Mapping[str, Any] = field(default_factory=dict)


_GRM_COLUMNS = (
    Column("good_pct_valid", "Good % of valid"),
    Column("fail_rate", "Failed %"),
    Column("no_logprob_rate", "No-logprob %"),
    Column("score_mean", "Score mean", "score"),
    Column("score_median", "Score median", "score"),
    Column("good_score_mean", "Good score mean", "score"),
    Column("bad_score_mean", "Bad score mean", "score"),
    # grader ensembles (uxbench.grading.ensemble)
    Column("grader_alpha", "Graders' α", "score"),
    Column("grader_kappa", "Graders' κ", "score"),
    Column("grader_unanimous", "Graders unanimous %"),
)

TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="task1_judge",
            title="Task 1 · UX Judge",
            headline=Column("avg_acc", "Avg-Acc %"),
            stderr="avg_acc_stderr",
            columns=(
                Column("good_acc", "Good-Acc %"),
                Column("bad_acc", "Bad-Acc %"),
                Column("parse_fail_rate", "Unparsed %"),
                Column("neutral_rate", "Neutral %"),
                # agreement with the users and calibration (uxbench.judge.calibration)
                Column("mcc", "MCC", "score"),
                Column("kappa", "κ", "score"),
                Column("auroc", "AUROC", "score"),
                Column("brier", "Brier", "score"),
                Column("ece", "ECE", "score"),
                Column("p_good_rate", "With P(good) %"),
            ),
            graded=False,
            breakdown_meaning={
                "failure_dimension": "Bad-Acc % per failure dimension",
                "success_pattern": "Good-Acc % per success pattern",
                "scenario": "Accuracy % per scenario (liked and disliked records)",
                "difficulty": "Accuracy % per difficulty",
            },
            paper_settings={"prompt": "default", "labels": "binary", "template": None, "temperature": 0.2},
        ),
        TaskSpec(
            name="task2_eval",
            title="Task 2 · UX Eval",
            headline=Column("good_pct", "Good %"),
            stderr="good_pct_stderr",
            columns=_GRM_COLUMNS,
            graded=True,
            breakdown_meaning={
                "failure_dimension": "Good % per failure dimension",
                "scenario": "Good % per scenario",
                "difficulty": "Good % per difficulty",
                "success_pattern": "Good % per success pattern",
                "grader_good_pct": "Good % of each grader of the panel on its own",
            },
            paper_settings={
                "system_prompt": "none",
                "history": "keep",
                "grader_template": None,
                "self_grade": False,
                "temperature": 0.7,
            },
        ),
        TaskSpec(
            name="task3_recovery",
            title="Task 3 · UX Recovery",
            headline=Column("recovery_rate", "Recovery %"),
            stderr="good_pct_stderr",
            columns=(*_GRM_COLUMNS, Column("delta_score", "Δ score vs failed reply", "delta")),
            graded=True,
            breakdown_meaning={
                "failure_dimension": "Recovery % per failure dimension",
                "scenario": "Recovery % per scenario",
                "difficulty": "Recovery % per difficulty",
                "grader_good_pct": "Recovery % of each grader of the panel on its own",
            },
            paper_settings={
                "strategy": "normal",
                "grm_context": "paper",
                "grader_template": None,
                "self_grade": False,
                "temperature": 0.7,
            },
        ),
    )
}

# models of the `baseline` provider (fixed rules, not language models)
BASELINE_PREFIXES = ("baseline/", "uxbench/baseline")
# the grader of the paper's Tasks 2/3 numbers (matched by name without its provider path)
PAPER_GRADER = "uxbench-grm"
