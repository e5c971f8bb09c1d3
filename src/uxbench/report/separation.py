"""Which differences in a ranking are real: per section, a test per pair of ranked models (Holm),
the compact letter display, separability and each model's 95% rank interval
(`uxbench.stats.pairwise`; docs/report.md#which-differences-are-real).

Each model's per-record outcome on its first epoch: Task 1 whether its verdict matched the user's
(Avg-Acc, resampled within the liked and the disliked records), Tasks 2/3 whether the grader called
the reply good (Good% / Recovery Rate, exact McNemar). Runs on exactly the same records are paired;
otherwise the section says so and the tests are independent bootstraps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from uxbench.report.grid import Cell, Grid
from uxbench.report.leaderboard_row import Row
from uxbench.report.percent import pct
from uxbench.report.samples import Evidence, Judgment
from uxbench.stats.pairwise import ALPHA, Separation, separate

LABELS = ("good", "bad")
TASK1 = "task1_judge"  # the task whose records are split by the users' label (Avg-Acc)
NOTE = (
    "Which differences are real: each pair of ranked models tested on their first epoch, p-values Holm-"
    "adjusted over the section's pairs. Models sharing a letter are not separable at α = 0.05. "
    "Separability: the share of model pairs whose difference is significant. Rank interval: the 2.5th–97.5th "
    "percentile of the model's rank over 2,000 bootstrap resamples of the records; it is not adjusted "
    "for the many pairs, so two models sharing a letter can each keep one rank in every resample (their "
    "order never flips, yet the Holm-adjusted test does not separate them)."
)
STABLE_TIED = (
    "a single rank in every resample, yet not separable from a model sharing its letter: the rank "
    "interval is not adjusted for the many pairs, the letters are"
)
UNPAIRED = "the runs are on different records: independent bootstraps, not paired tests"


@dataclass(frozen=True)
class Ranking:
    """A section's ranked rows and the tests between them."""

    rows: list[Row]
    result: Separation
    records: int  # per run (paired), or the smallest run's
    left_out: list[str]  # ranked models without a per-record outcome (every sample errored)

    def summary(self) -> str:
        pairs = len(self.result.p_values)
        share = self.result.separability
        text = (
            f"Separability {pct(share, 0)}% ({len(self.result.separated)} of {pairs} pairs differ; "
            f"{self.result.test} on {self.records} records, Holm, α = {ALPHA})"
        )
        if not self.result.paired:
            text += f"; {UNPAIRED}"
        if self.left_out:
            text += f"; left out, no per-record outcome: {', '.join(self.left_out)}"
        return text


def _outcome(spec_name: str, judgment: Judgment) -> float | None:
    if spec_name == TASK1:
        return (
            None
            if judgment.correct is None or judgment.label not in LABELS
            else float(judgment.correct >= 0.5)
        )
    return None if judgment.verdict is None else float(judgment.verdict == "good")


def _first_epoch(spec_name: str, evidence: Evidence, row: Row) -> dict[str | int, tuple[float, str]]:
    out: dict[str | int, tuple[float, str]] = {}
    for j in evidence.judgments(row.run):
        value = _outcome(spec_name, j) if j.epoch == 1 else None
        if value is not None:
            out[j.id] = (value, str(j.label))
    return out


def ranking(spec_name: str, rows: list[Row], evidence: Evidence) -> Ranking | None:
    """The tests between a section's ranked rows (None with fewer than two that have outcomes)."""
    ranked = [row for row in rows if row.rank is not None]
    if len(ranked) < 2:
        return None
    every = [(row, _first_epoch(spec_name, evidence, row)) for row in ranked]
    outcomes = [(row, found) for row, found in every if found]
    left_out = [row.run.who for row, found in every if not found]
    if len(outcomes) < 2:
        return None
    ids = [set(found) for _, found in outcomes]
    paired = all(s == ids[0] for s in ids)
    order = [sorted(found, key=str) for _, found in outcomes]
    values = [np.array([found[i][0] for i in keys]) for (_, found), keys in zip(outcomes, order, strict=True)]
    strata = None
    if spec_name == TASK1:
        strata = [
            np.array([found[i][1] for i in keys]) for (_, found), keys in zip(outcomes, order, strict=True)
        ]
    result = separate(values, strata, paired=paired, binary=True)
    return Ranking([row for row, _ in outcomes], result, min(len(v) for v in values), left_out)


def separation_grid(item: Ranking, section_id: str) -> Grid:
    titles = ["Model", "Rank", "First epoch %", "Group", "95% rank interval"]
    notes = [
        "the model",
        "the ranking's rank",
        "the headline on the first epoch, the numbers tested",
        "models sharing a letter are not separable",
        "2.5th–97.5th percentile of the rank over bootstrap resamples",
    ]
    rows = []
    letters = item.result.letters
    for k, row in enumerate(item.rows):
        low, high = item.result.rank_low[k], item.result.rank_high[k]
        interval = f"{low}" if low == high else f"{low}–{high}"
        tied = low == high and any(set(letters[k]) & set(letters[j]) for j in range(len(letters)) if j != k)
        rows.append(
            [
                Cell(row.run.who, row.run.who),
                Cell(str(row.rank), row.rank),
                Cell(pct(item.result.estimates[k]), item.result.estimates[k]),
                Cell(item.result.letters[k], item.result.letters[k]),
                Cell(interval, low, note=STABLE_TIED if tied else ""),
            ]
        )
    return Grid(titles, rows, [row.kind for row in item.rows], notes, id=f"{section_id}-separation", pin=0)


def separation_json(item: Ranking | None) -> dict[str, Any] | None:
    if item is None:
        return None
    result = item.result
    names = [row.run.who for row in item.rows]
    return {
        "test": result.test,
        "paired": result.paired,
        "alpha": ALPHA,
        "separability": None if math.isnan(result.separability) else result.separability,
        "models": [
            {
                "model": name,
                "first_epoch": result.estimates[k],
                "letters": result.letters[k],
                "rank_ci95": [result.rank_low[k], result.rank_high[k]],
            }
            for k, name in enumerate(names)
        ],
        "pairs": [
            {"first": names[i], "second": names[j], "p_holm": p, "separable": p < ALPHA}
            for (i, j), p in result.p_values.items()
        ],
    }
