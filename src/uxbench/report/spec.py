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
    note: str = ""  # what the column means: its header's tooltip and its line in "How to read"


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
    Column("good_pct_valid", "Good % of valid", note="Good % among the replies the grader graded"),
    Column("fail_rate", "Failed %", note="replies without a readable verdict (counted as not good)"),
    Column(
        "no_logprob_rate", "No-logprob %", note="grades without token probabilities (score from the verdict)"
    ),
    Column("score_mean", "Score mean", "score", "mean GRM score (P(good)) over graded replies"),
    Column("score_median", "Score median", "score", "median GRM score"),
    Column("good_score_mean", "Good score mean", "score", "mean score of the replies graded good"),
    Column("bad_score_mean", "Bad score mean", "score", "mean score of the replies graded bad"),
    # grader ensembles (uxbench.grader_answer.panel)
    Column("grader_alpha", "Graders' α", "score", "Krippendorff's α of a grader panel's verdicts"),
    Column("grader_kappa", "Graders' κ", "score", "Fleiss' κ of a grader panel's verdicts"),
    Column("grader_unanimous", "Graders unanimous %", note="replies every grader of the panel agreed on"),
)

TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="task1_judge",
            title="Task 1 · UX Judge",
            headline=Column(
                "avg_acc",
                "Avg-Acc %",
                note="(Good-Acc + Bad-Acc)/2, with its 95% interval (Jeffreys per label, MOVER)",
            ),
            stderr="avg_acc_stderr",
            columns=(
                Column("good_acc", "Good-Acc %", note="liked replies the judge called good"),
                Column("bad_acc", "Bad-Acc %", note="disliked replies the judge called bad"),
                Column("parse_fail_rate", "Unparsed %", note="answers naming no label (counted as wrong)"),
                Column(
                    "neutral_rate",
                    "Neutral %",
                    note="neutral answers (three-label prompts; counted as wrong)",
                ),
                # agreement with the users and calibration (uxbench.judge_answer.calibration)
                Column("mcc", "MCC", "score", "Matthews correlation of verdicts with the users' labels"),
                Column("kappa", "κ", "score", "Cohen's κ of verdicts with the users' labels"),
                Column("auroc", "AUROC", "score", "how well P(good) ranks liked above disliked replies"),
                Column("brier", "Brier", "score", "mean squared error of P(good); lower is better"),
                Column("ece", "ECE", "score", "expected calibration error of P(good); lower is better"),
                Column(
                    "p_good_rate", "With P(good) %", note="answers with a P(good) from token probabilities"
                ),
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
            headline=Column(
                "good_pct",
                "Good %",
                note="replies the grader called good, of all records, with a Wilson 95% interval",
            ),
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
            headline=Column(
                "recovery_rate",
                "Recovery %",
                note="repairs the grader called good, of all records, with a Wilson 95% interval",
            ),
            stderr="good_pct_stderr",
            columns=(
                *_GRM_COLUMNS,
                Column(
                    "delta_score",
                    "Δ score vs failed reply",
                    "delta",
                    "mean GRM score of the repair minus the failed reply's (bootstrap 95% interval)",
                ),
            ),
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
