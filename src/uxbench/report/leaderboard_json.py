"""leaderboard.json: everything in the tables, for other tools (fractions, not percentages; null
for no value)."""

from __future__ import annotations

from typing import Any

from uxbench.report import paper_numbers
from uxbench.report.captions import INTERVALS
from uxbench.report.paired import paired_json
from uxbench.report.people import agreement_json
from uxbench.report.qualified import checks_json
from uxbench.report.rows import Row
from uxbench.report.sections import Leaderboard, Section, group_n
from uxbench.report.separation import separation_json
from uxbench.report.settings import matches


def _row_json(sec: Section, row: Row) -> dict[str, Any]:
    run = row.run
    shown = sec.show_paths
    return {
        "rank": row.rank,
        "ref": row.ref,
        "model": run.model,
        "annotator": run.annotator,
        "label": row.label,
        "kind": row.kind or "model",
        "baseline": row.baseline,
        "partial": run.partial,
        "grader": run.grader,
        "published_no_row": row.no_rows,
        "section": sec.id,
        "settings": row.settings,
        "all_settings": run.shown_settings(list(run.settings), shown),
        "data": run.data(shown),
        "dataset_revision": run.dataset_revision,
        "created": run.created,
        "samples": run.samples,
        "total": run.total,
        "log": run.log if shown else run.name,
        "headline": row.headline,
        "ci95": list(row.interval) if row.interval else None,
        "ci95_method": row.interval_method or None,
        "metrics": run.metrics,
        "delta_score_ci95": list(row.delta_interval) if row.delta_interval else None,
        "breakdown": run.breakdown,
        "breakdown_n": {
            key: {g: group_n(row, key, g) for g in groups} for key, groups in run.breakdown.items()
        },
        "paper_name": row.paper,
        "paper_settings_match": matches(run.settings, sec.spec.paper_settings),
        "published": row.published,
        **({**row.grm.fields, "grm_equiv_note": row.grm.note} if row.grm else {}),
    }


def as_json(board: Leaderboard) -> dict[str, Any]:
    """Everything in the tables, for other tools (fractions, not percentages; null for no value)."""
    tasks: dict[str, Any] = {}
    for table in board.tables:
        tasks[table.spec.name] = {
            "title": table.spec.title,
            "headline": table.spec.headline.metric,
            "paper_settings": dict(table.spec.paper_settings),
            "sections": [
                {
                    "id": sec.id,
                    "grader": sec.grader,
                    "apart": sec.apart or None,
                    "title": sec.title,
                    "notes": sec.notes(),
                    "columns": [c.metric for c in sec.columns],
                    "separation": separation_json(sec.separation),
                }
                for sec in table.sections
            ],
            "rows": [_row_json(sec, row) for sec in table.sections for row in sec.rows],
        }
    return {
        "generated": board.generated,
        "sources": board.sources,
        "published_source": paper_numbers.source(),
        "intervals": INTERVALS,
        "notes": board.notes,
        "tasks": tasks,
        "missing_tasks": [spec.name for spec in board.missing],
        "grader_checks": checks_json(board.checks, board.corrected_by(), board.show_paths),
        "paired": [
            item
            for table in board.tables
            for sec in table.sections
            for item in paired_json(sec.pairs, board.show_paths)
        ],
        "agreement": [
            {"task": sec.spec.name, **agreement_json(sec.agreement)}
            for table in board.tables
            for sec in table.sections
            if sec.agreement
        ],
        "skipped": [
            {
                "log": s.log if board.show_paths else s.name,
                "task": s.task,
                "model": s.model,
                "reason": s.reason,
            }
            for s in board.skipped
        ],
    }
