"""The report's trust checks, shown beside the task they qualify: Task 1 calibration
(reliability diagrams), and per grader of Tasks 2/3 the style control and the self-family
flag (docs/trust.md explains them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from uxbench.calibration import Bin, reliability_bins
from uxbench.report import samples
from uxbench.report.family import family, self_family
from uxbench.report.grid import Cell, Grid
from uxbench.report.samples import Evidence
from uxbench.report.style import FEATURES, Reply, StyleFit, fit_style
from uxbench.report.tables import Leaderboard, Row, Section, fmt

# replies read per run for the style fit: a seeded sample, enough for its four slopes and
# cheap at 27 models × 4,900 records (docs/report.md)
STYLE_SAMPLE = 300
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
    "intercepts keep real quality differences out of b. Style-adjusted Good% counts replies whose "
    "score − b·(x − x̄) is ≥ 0.5 (replies without a score keep their verdict), over the replies read "
    f"(a seeded sample of at most {STYLE_SAMPLE} per run). Length R²: squared correlation of score and "
    "reply length within the model's replies. Self-family: the model under test and a grader share a "
    "model family."
)


@dataclass(frozen=True)
class SectionTrust:
    section: Section
    style: StyleFit | None = None
    left_out: dict[str, str] = field(default_factory=dict)  # run log -> why it is not in the style fit
    reliability: dict[str, list[Bin]] = field(default_factory=dict)  # run log -> bins

    def self_family(self, row: Row) -> bool:
        return self_family(row.run.model, row.run.graders)


def _left_out(row: Row) -> str | None:
    if row.baseline:
        return "baseline"
    if row.run.self_graded:
        return "self-graded"
    return None


def _replies(row: Row, evidence: Evidence) -> list[Reply]:
    run = row.run
    scored = [j.id for j in evidence.judgments(run) if j.epoch == 1] if run.partial else list(run.sample_ids)
    return samples.replies(run.log, scored, STYLE_SAMPLE)


def assess(board: Leaderboard, evidence: Evidence) -> dict[str, SectionTrust]:
    """The trust checks of every section on the board, by section id."""
    found = {}
    for table in board.tables:
        for section in table.sections:
            if section.spec.graded:
                replies = {row.run.log: _replies(row, evidence) for row in section.rows}
                left_out = {row.run.log: why for row in section.rows if (why := _left_out(row))}
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
        "Good % (read)",
        "Style-adjusted Good %",
        "Length R²",
        "Mean length",
        "Self-family",
    ]
    rows = []
    for row in trust.section.rows:
        style = trust.style.models.get(row.run.log) if trust.style else None
        why = trust.left_out.get(row.run.log)
        adjusted = _nan_free(style.adjusted_good_pct) if style else None
        r2 = _nan_free(style.length_r2) if style else None
        flag = trust.self_family(row)
        rows.append(
            [
                Cell(row.run.model + (f" ({why})" if why else ""), row.run.model),
                Cell(str(style.records) if style else "–", style.records if style else None),
                Cell(fmt(style.good_pct if style else None), style.good_pct if style else None),
                Cell(f"– ({why}: not fitted)" if why else fmt(adjusted), adjusted),
                Cell(fmt(r2, "score"), r2),
                Cell(
                    f"{style.mean_length:.0f}" if style and not math.isnan(style.mean_length) else "–",
                    _nan_free(style.mean_length) if style else None,
                ),
                Cell("yes" if flag else "", int(flag)),
            ]
        )
    kinds = [row.kind for row in trust.section.rows]
    return Grid(titles, rows, kinds, id=f"{trust.section.id}-style")


def coefficients(style: StyleFit) -> str:
    parts = ", ".join(f"{name} {style.coefficients[name]:+.4f}" for name in FEATURES)
    return f"Fitted b (score change per unit) over {style.scored} scored replies: {parts}."


def fitted_text(trust: SectionTrust) -> str:
    return coefficients(trust.style) if trust.style else "Too few scored replies to fit."


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
