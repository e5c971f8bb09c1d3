"""The report's trust checks, shown beside the task they qualify: Task 1 calibration
(reliability diagrams), and per grader of Tasks 2/3 the style control and the self-family
flag (docs/trust.md explains them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from uxbench.providers.replay import NO_REPLIES
from uxbench.qualification.published import replayed_grader
from uxbench.report.family import family, self_family
from uxbench.report.formatting import fmt
from uxbench.report.grid import Cell, Grid
from uxbench.report.leaderboard_row import Row
from uxbench.report.percent import pct
from uxbench.report.samples import STYLE_SAMPLE, Evidence
from uxbench.report.sections import Leaderboard, Section
from uxbench.report.style import FEATURES, StyleFit, fit_style
from uxbench.stats.agreement import Bin, reliability_bins

INTRO = "What each number means and when to distrust a result: docs/trust.md."
RELIABILITY = (
    "Reliability: replies binned by the judge's P(good) (bins of 0.1); bars show the share the users "
    "liked, on the dashed diagonal the judge is calibrated. MCC, κ, AUROC, Brier and ECE are columns of "
    "the table above."
)
STYLE_METHOD = (
    "Style control, fitted for this grader alone: one least-squares fit over the scored replies of its "
    "models (baselines and self-graded runs left out), score = a_model + b·(x − x̄), x = (length in 1k "
    "characters, markdown header lines, list-item lines, bold spans), x̄ their mean. The per-model "
    "intercepts keep real quality differences out of b. On the replies read (a seeded sample of at most "
    f"{STYLE_SAMPLE} per run) the style shift is the share of replies whose score − b·(x − x̄) is ≥ 0.5 "
    "(replies without a score keep their verdict) minus the share judged good; style-adjusted Good% is "
    "the run's Good% over all records plus that shift. Length R²: squared correlation of score and "
    "reply length within the model's replies read. Self-family: the model under test and a grader "
    "share a model family. A replay graded by UXBench-GRM's published grades gets no self-family flag "
    "(the grade is looked up by record: no model grades anything), and a replay of stand-in replies "
    f"(-M replies={NO_REPLIES}) no style numbers (the replies are not the model's)."
)
STYLE_POINTER = "How the fit is made: “How to read this page”, at the top of the report."
STAND_IN = f"stand-in replies, -M replies={NO_REPLIES}"
PUBLISHED_GRADES = "published grades, looked up by record"
NOT_APPLICABLE = (
    "No trust check applies to these rows: their grades are UXBench-GRM's published ones, looked up "
    "by record (no model grades its own family), and their replies are stand-ins "
    f"(-M replies={NO_REPLIES}), so there are no replies to fit a style control on."
)


@dataclass(frozen=True)
class SectionTrust:
    section: Section
    style: StyleFit | None = None
    left_out: dict[str, str] = field(default_factory=dict)  # run log -> why it is not in the style fit
    reliability: dict[str, list[Bin]] = field(default_factory=dict)  # run log -> bins

    def self_family(self, row: Row) -> bool | None:
        """Whether a grader shares the model's family; None where no model graded (published grades)."""
        if published_grades(row):
            return None
        return self_family(row.run.model, row.run.graders)

    @property
    def applies(self) -> bool:
        """Whether any row has a style number or a self-family flag to show."""
        return any(
            self.left_out.get(row.run.log) != STAND_IN or not published_grades(row)
            for row in self.section.rows
        )


def published_grades(row: Row) -> bool:
    """Graded by replaying published grades: a lookup by record, not a model reading the reply."""
    return bool(row.run.graders) and all(replayed_grader(g) is not None for g in row.run.graders)


def stand_in(row: Row) -> bool:
    """A replay with `-M replies=none`: its replies are one stand-in text, not the model's."""
    return row.run.settings.get("-M replies") == NO_REPLIES


def _left_out(row: Row) -> str | None:
    marks = (("baseline", row.baseline), ("self-graded", row.run.self_graded), (STAND_IN, stand_in(row)))
    return next((why for why, on in marks if on), None)


def assess(board: Leaderboard, evidence: Evidence) -> dict[str, SectionTrust]:
    """The trust checks of every section on the board, by section id."""
    found = {}
    for table in board.tables:
        for section in table.sections:
            if section.spec.graded:
                left_out = {row.run.log: why for row in section.rows if (why := _left_out(row))}
                # stand-in replies are not read: nothing about them is the model's
                replies = {
                    row.run.log: evidence.replies(row.run)
                    for row in section.rows
                    if left_out.get(row.run.log) != STAND_IN
                }
                found[section.id] = SectionTrust(section, fit_style(replies, left_out), left_out)
            else:
                bins = {}
                for row in section.rows:
                    p, y = evidence.p_good(row.run)
                    if p:
                        bins[row.run.log] = reliability_bins(p, y)
                found[section.id] = SectionTrust(section, reliability=bins)
    return found


# ---------------------------------------------------------------- tables


def _nan_free(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else value


def style_grid(trust: SectionTrust) -> Grid:
    titles = [
        "Model",
        "Replies read",
        "Good % (all records)",
        "Style shift (points)",
        "Style-adjusted Good %",
        "Length R²",
        "Mean length",
        "Self-family",
    ]
    rows = []
    for row in trust.section.rows:
        style = trust.style.models.get(row.run.log) if trust.style else None
        why = trust.left_out.get(row.run.log)
        shift = style_shift(trust, row)
        adjusted = adjusted_good_pct(trust, row)
        r2 = _nan_free(style.length_r2) if style else None
        flag = trust.self_family(row)
        rows.append(
            [
                Cell(row.run.model + (f" ({why})" if why else ""), row.run.model),
                Cell(str(style.records) if style else "–", style.records if style else None),
                Cell(fmt(row.headline), row.headline),
                Cell(pct(shift, signed=True), shift),
                Cell(f"– ({why}: not fitted)" if why else fmt(adjusted), adjusted),
                Cell(fmt(r2, "score"), r2),
                Cell(
                    f"{style.mean_length:.0f}" if style and not math.isnan(style.mean_length) else "–",
                    _nan_free(style.mean_length) if style else None,
                ),
                Cell(
                    "yes" if flag else "–" if flag is None else "no",
                    None if flag is None else int(flag),
                    note=f"not applicable: {PUBLISHED_GRADES}" if flag is None else "",
                ),
            ]
        )
    kinds = [row.kind for row in trust.section.rows]
    return Grid(titles, rows, kinds, STYLE_NOTES, id=f"{trust.section.id}-style")


# what each column of the style-control table means (its header's tooltip)
STYLE_NOTES = [
    "the model under test",
    f"replies read for the fit: a seeded sample of at most {STYLE_SAMPLE} per run",
    "the headline: replies graded good, of all records",
    "share judged good once style is held at the mean, minus the share judged good, on the replies read",
    "the run's Good % over all records plus its style shift",
    "squared correlation of score and reply length within the model's replies read",
    "mean reply length in characters, on the replies read",
    "whether the model under test and a grader share a model family",
]


def style_shift(trust: SectionTrust, row: Row) -> float | None:
    """Style-adjusted minus raw Good% on the replies read (None when not fitted)."""
    style = trust.style.models.get(row.run.log) if trust.style else None
    if style is None or math.isnan(style.adjusted_good_pct) or math.isnan(style.good_pct):
        return None
    return style.adjusted_good_pct - style.good_pct


def adjusted_good_pct(trust: SectionTrust, row: Row) -> float | None:
    """The run's Good% over all records moved by its style shift, kept in [0, 1]."""
    shift = style_shift(trust, row)
    if shift is None or row.headline is None:
        return None
    return min(1.0, max(0.0, row.headline + shift))


def coefficients(style: StyleFit) -> str:
    parts = ", ".join(f"{name} {style.coefficients[name]:+.4f}" for name in FEATURES)
    return f"Fitted b (score change per unit) over {style.scored} scored replies: {parts}."


def fitted_text(trust: SectionTrust) -> str:
    return coefficients(trust.style) if trust.style else "Too few scored replies to fit."


def style_text(trust: SectionTrust) -> str:
    """The line above a ranking's style table, or why there is no table (no check applies)."""
    return f"{fitted_text(trust)} {STYLE_POINTER}" if trust.applies else NOT_APPLICABLE


def as_json(trusts: dict[str, SectionTrust]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for section_id, trust in trusts.items():
        rows = []
        for row in trust.section.rows:
            style = trust.style.models.get(row.run.log) if trust.style else None
            rows.append(
                {
                    "model": row.run.model,
                    "ref": row.ref,
                    "graders": list(row.run.graders),
                    "family": family(row.run.model),
                    "self_family": trust.self_family(row),
                    "left_out_of_style_fit": trust.left_out.get(row.run.log),
                    "style_shift": style_shift(trust, row),
                    "style_adjusted_good_pct": adjusted_good_pct(trust, row),
                    "style": {k: _nan_free(v) if isinstance(v, float) else v for k, v in vars(style).items()}
                    if style
                    else None,
                    "reliability": [
                        {k: _nan_free(v) if isinstance(v, float) else v for k, v in vars(b).items()}
                        for b in trust.reliability.get(row.run.log, [])
                    ]
                    or None,
                }
            )
        fit = (
            {"coefficients": trust.style.coefficients, "scored": trust.style.scored} if trust.style else None
        )
        out[section_id] = {
            "task": trust.section.spec.name,
            "grader": trust.section.grader,
            "style_fit": fit,
            "rows": rows,
        }
    return out
