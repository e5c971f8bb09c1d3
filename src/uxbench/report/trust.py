"""The report's trust checks: Task 1 calibration (reliability diagrams), and for the
GRM-scored tasks style control and the self-family flag (docs/trust.md explains them).

These need the samples, so the logs of the runs on the leaderboard are read in full here
(the rest of the report reads headers only).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.scorer import SampleScore, Score
from matplotlib import rc_context
from matplotlib.figure import Figure

from uxbench.calibration import Bin, probabilities, reliability_bins
from uxbench.ensemble import grader_roles
from uxbench.report.charts import BLUE, GREY, Chart, _finish, _style
from uxbench.report.family import family, self_family
from uxbench.report.html import _table
from uxbench.report.style import FEATURES, Reply, StyleFit, fit_style
from uxbench.report.tables import Leaderboard, Row, TaskTable, _md_table, fmt
from uxbench.scorers.grm import final_reply

INTRO = "What each number means and when to distrust a result: docs/trust.md."
RELIABILITY = (
    "Reliability diagrams: replies binned by the judge's P(good) (bins of 0.1); bars show the share the "
    "users liked, on the dashed diagonal the judge is calibrated. MCC, κ, AUROC, Brier and ECE are "
    "columns of the Task 1 table."
)
STYLE_METHOD = (
    "Style control: one least-squares fit over every scored reply of every model, "
    "score = a_model + b·(x − x̄), x = (length in 1k characters, markdown header lines, list-item lines, "
    "bold spans), x̄ their mean. The per-model intercepts keep real quality differences out of b. "
    "Style-adjusted Good% counts replies whose score − b·(x − x̄) is ≥ 0.5 (replies without a score keep "
    "their verdict) over all records. Length R²: squared correlation of score and reply length within "
    "the model's replies. Self-family: the model under test and a grader share a model family."
)


@dataclass(frozen=True)
class TaskTrust:
    table: TaskTable
    graders: dict[str, list[str]] = field(default_factory=dict)  # row label -> grader models
    style: StyleFit | None = None
    reliability: dict[str, list[Bin]] = field(default_factory=dict)  # row label -> bins

    def self_family(self, row: Row) -> bool:
        return self_family(row.run.model, self.graders.get(row.label, []))


def _graders(log: EvalLog) -> list[str]:
    """Every grader of a run: the bound grader roles, or the model itself when self-graded."""
    roles = log.eval.model_roles or {}
    models = [roles[role].model for role in grader_roles(roles) if not isinstance(roles[role], list)]
    if not models and log.eval.task_args.get("self_grade"):
        models = [log.eval.model]
    return models


def _score(sample: EvalSample) -> Score | None:
    """The sample's UXBench score: the one whose metadata holds a verdict or a P(good)."""
    for score in (sample.scores or {}).values():
        if score.metadata and ("verdict" in score.metadata or "p_good" in score.metadata):
            return score
    return None


def _replies(log: EvalLog) -> list[Reply]:
    """The graded replies with their verdicts and scores."""
    replies = []
    for sample in log.samples or []:
        meta = (score.metadata or {}) if (score := _score(sample)) else {}
        if "verdict" in meta:
            text = meta.get("graded_response") or final_reply(sample.output.completion, None)[0]
            replies.append(Reply(text, str(meta["verdict"]), meta.get("score")))
    return replies


def _judgments(log: EvalLog) -> list[SampleScore]:
    return [SampleScore(score=score) for sample in log.samples or [] if (score := _score(sample))]


def assess(board: Leaderboard) -> list[TaskTrust]:
    """The trust checks of every task on the board."""
    found = []
    for table in board.tables:
        graders: dict[str, list[str]] = {}
        replies: dict[str, list[Reply]] = {}
        reliability: dict[str, list[Bin]] = {}
        for row in table.rows:
            log = read_eval_log(row.run.log)
            if table.spec.graded:
                graders[row.label] = _graders(log)
                replies[row.label] = _replies(log)
            else:
                p, y = probabilities(_judgments(log))
                if p:
                    reliability[row.label] = reliability_bins(p, y)
        style = fit_style(replies) if replies else None
        found.append(TaskTrust(table, graders, style, reliability))
    return found


# ---------------------------------------------------------------- charts


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:60]


def reliability_chart(trust: TaskTrust, row: Row, bins: list[Bin], out_dir: Path) -> Chart:
    """Share of liked replies against mean P(good) per bin; on the diagonal a judge is calibrated."""
    figure = Figure(figsize=(5.2, 5.4))
    ax = figure.subplots()
    ax.plot([0, 1], [0, 1], color="#888", ls="--", lw=1)
    filled = [b for b in bins if b.count]
    ax.bar([b.low for b in filled], [b.frequency for b in filled], width=0.1, align="edge",
           color=GREY if row.baseline else BLUE, alpha=0.35, edgecolor="#555")  # fmt: skip
    ax.plot([b.confidence for b in filled], [b.frequency for b in filled], "o-", color="#222", ms=4)
    for b in filled:
        ax.text(b.low + 0.05, 0.015, f"n={b.count}", ha="center", fontsize=7, color="#333")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("P(good) from the judge's logprobs (bins of 0.1)")
    ax.set_ylabel("share of replies the users liked")
    ece = row.run.metrics.get("ece")
    title = f"Reliability: {row.label}" + (f" (ECE {ece:.3f})" if ece is not None else "")
    name = f"{trust.table.spec.name}_reliability_{_slug(row.label)}.png"
    return _finish(figure, title, out_dir, name, trust.table.spec.name)


def draw(trusts: list[TaskTrust], out_dir: Path) -> list[Chart]:
    with rc_context(_style()):
        return [
            reliability_chart(trust, row, trust.reliability[row.label], out_dir)
            for trust in trusts
            for row in trust.table.rows
            if row.label in trust.reliability
        ]


# ---------------------------------------------------------------- tables


def style_rows(trust: TaskTrust) -> tuple[list[str], list[list[tuple[str, Any]]]]:
    titles = [
        "Model",
        "Good %",
        "Style-adjusted Good %",
        "Length R²",
        "Mean length",
        "Self-family",
        "Graders",
    ]
    rows = []
    for row in trust.table.rows:
        style = trust.style.models.get(row.label) if trust.style else None
        flag = trust.self_family(row)
        graders = ", ".join(trust.graders.get(row.label, [])) or "–"
        rows.append(
            [
                (_label(row), row.label),
                (fmt(style.good_pct if style else None), style.good_pct if style else None),
                (fmt(style.adjusted_good_pct if style else None), style.adjusted_good_pct if style else None),
                (fmt(style.length_r2 if style else None, "score"), style.length_r2 if style else None),
                (f"{style.mean_length:.0f}" if style else "–", style.mean_length if style else None),
                ("yes" if flag else "", int(flag)),
                (graders, graders),
            ]
        )
    return titles, rows


def coefficients(style: StyleFit) -> str:
    parts = ", ".join(f"{name} {style.coefficients[name]:+.4f}" for name in FEATURES)
    return f"Fitted b (score change per unit) over {style.scored} scored replies: {parts}."


def _label(row: Row) -> str:
    return row.label + (" (baseline)" if row.baseline else "")


def _md(titles: list[str], rows: list[list[tuple[str, Any]]]) -> list[str]:
    return _md_table(titles, [[text for text, _ in row] for row in rows])


def markdown(trusts: list[TaskTrust], charts: list[Chart]) -> str:
    lines = ["", "## Trust checks", "", INTRO, ""]
    for trust in trusts:
        spec = trust.table.spec
        if spec.graded:
            lines += [f"### {spec.title}: style control and judge bias", "", STYLE_METHOD, ""]
            lines += (
                [coefficients(trust.style), ""] if trust.style else ["Too few scored replies to fit.", ""]
            )
            lines += _md(*style_rows(trust))
        elif trust.reliability:
            diagrams = [c for c in charts if c.task == spec.name and "_reliability_" in c.file]
            lines += [f"### {spec.title}: calibration", "", RELIABILITY, ""]
            lines += [*(f"![{c.title}]({c.file})" for c in diagrams), ""]
    return "\n".join(lines).rstrip() + "\n"


def html(trusts: list[TaskTrust]) -> str:
    """The same checks as a page section (the reliability diagrams sit with Task 1's charts)."""
    parts = ['<section id="trust"><h2>Trust checks</h2>', f'<p class="note">{escape(INTRO)}</p>']
    for trust in trusts:
        spec = trust.table.spec
        if spec.graded:
            classes = ["baseline" if row.baseline else "" for row in trust.table.rows]
            fitted = coefficients(trust.style) if trust.style else "Too few scored replies to fit."
            parts.append(f"<h3>{escape(spec.title)}: style control and judge bias</h3>")
            parts.append(f'<p class="note">{escape(STYLE_METHOD)}</p><p class="note">{escape(fitted)}</p>')
            parts.append(_table(*style_rows(trust), classes))
        elif trust.reliability:
            parts.append(
                f'<h3>{escape(spec.title)}: calibration</h3><p class="note">{escape(RELIABILITY)}</p>'
            )
    return "".join(parts) + "</section>"


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    """JSON has no NaN: null instead."""
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in values.items()}


def as_json(trusts: list[TaskTrust]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for trust in trusts:
        rows = {}
        for row in trust.table.rows:
            style = trust.style.models.get(row.label) if trust.style else None
            rows[row.label] = {
                "graders": trust.graders.get(row.label, []),
                "family": family(row.run.model),
                "self_family": trust.self_family(row),
                "style": _plain(vars(style)) if style else None,
                "reliability": [_plain(vars(b)) for b in trust.reliability.get(row.label, [])] or None,
            }
        style_fit = (
            {"coefficients": trust.style.coefficients, "scored": trust.style.scored} if trust.style else None
        )
        out[trust.table.spec.name] = {"style_fit": style_fit, "rows": rows}
    return out
