"""The columns of a section's table: each a `ColumnDef` (title, cell per row, header note), so a
column such as the GRM-equivalent Good% of Tasks 2/3 (qualified.py) is one more entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from uxbench.report import paper_numbers
from uxbench.report.formatting import date, fmt, fmt_interval, settings_text
from uxbench.report.grid import Cell
from uxbench.report.leaderboard_row import Row
from uxbench.report.qualified import explanation
from uxbench.report.sections import Section
from uxbench.report.spec import Column, TaskSpec


@dataclass(frozen=True)
class ColumnDef:
    title: str
    cell: Callable[[Row], Cell]
    note: str = ""  # what the column means (header tooltip)


def model_cell(row: Row) -> Cell:
    marks = row.marks()
    return Cell(row.run.who + (f" ({', '.join(marks)})" if marks else ""), row.run.who)


def _records(row: Row) -> Cell:
    run = row.run
    if row.no_rows:
        note = f"{row.no_rows} of them without a row in the published file, counted as failed judgments"
        return Cell(f"{run.samples} ({row.no_rows} no row)", run.samples, note=note)
    if run.partial:
        return Cell(f"{run.samples} of {run.total}", run.samples, note=run.partial)
    if run.human and run.samples < run.total:
        return Cell(str(run.samples), run.samples, note=f"of {run.total} records: a person judges a subset")
    return Cell(str(run.samples), run.samples)


def _grm_cell(row: Row) -> Cell:
    item = row.grm
    if item is None:
        return Cell("–")
    if item.value is None:
        return Cell(item.note or "–", None, muted=True)
    return Cell(fmt_interval(item.value, item.interval), item.value, note=explanation(item))


def _grm_def(section: Section) -> ColumnDef | None:
    """The GRM-equivalent headline, in a graded section (unless it is graded by UXBench-GRM and
    no row has a number: there the raw headline already is UXBench-GRM's)."""
    if not section.spec.graded:
        return None
    if section.paper_grader and not any(row.grm and row.grm.value is not None for row in section.rows):
        return None
    return ColumnDef(
        f"GRM-equiv. {section.spec.headline.title} (95% CI)",
        _grm_cell,
        "What UXBench-GRM would give, from the grader's grader_check (docs/graders.md)",
    )


def _metric_def(column: Column) -> ColumnDef:
    def cell(row: Row) -> Cell:
        value = row.run.metrics.get(column.metric)
        if column.metric == "delta_score":
            return Cell(
                fmt_interval(value, row.delta_interval, "delta"),
                value,
                note="95% studentised bootstrap interval",
            )
        return Cell(fmt(value, column.kind), value)

    title = column.title + (" (95% CI)" if column.metric == "delta_score" else "")
    return ColumnDef(title, cell, column.note)


def _paper_def(section: Section) -> ColumnDef:
    spec = section.spec
    title = f"Paper {spec.headline.title}"
    if spec.graded and not section.paper_grader:
        title += " (UXBench-GRM)"

    def cell(row: Row) -> Cell:
        value = (row.published or {}).get(spec.headline.metric)
        if value is not None and row.run.human:
            return Cell(fmt(value), value, note=f"{row.paper}: the paper's blind human baseline")
        reported = not row.run.human and paper_numbers.published_metrics(spec.name, row.run.model) is not None
        if value is None and reported:
            return Cell(
                "other settings",
                None,
                note=f"The paper's {row.paper} ran with {settings_text(_paper_text(spec))}",
            )
        return Cell(fmt(value), value, note=row.paper_gap(spec.name, spec.headline.metric))

    return ColumnDef(
        title, cell, "The paper's published value, shown where the row's settings match the paper's"
    )


def _paper_text(spec: TaskSpec) -> dict[str, str]:
    return {name: "null" if value is None else str(value) for name, value in spec.paper_settings.items()}


def has_grm_column(section: Section) -> bool:
    return _grm_def(section) is not None


def section_columns(section: Section) -> list[ColumnDef]:
    """The columns of a section's leaderboard, in order: the headline right after the model,
    the settings in one compact column."""
    spec = section.spec
    headline = ColumnDef(
        f"{spec.headline.title} (95% CI)",
        lambda row: Cell(fmt_interval(row.headline, row.interval), row.headline, note=row.interval_method),
        spec.headline.note,
    )
    shown = section.show_paths
    grm = _grm_def(section)
    return [
        ColumnDef(
            "#",
            lambda row: Cell("–" if row.rank is None else str(row.rank), row.rank),
            "rank by the headline; equal values share a rank; partial and human rows are not ranked",
        ),
        ColumnDef("Model", model_cell, "the model (a person: uxbench/human · annotator)"),
        headline,
        *([] if section.synthetic else [_paper_def(section)]),
        *([grm] if grm else []),
        ColumnDef("n", _records, "records scored"),
        ColumnDef(
            "Settings",
            lambda row: Cell(settings_text(row.settings) or "–", settings_text(row.settings)),
            "settings not at their default, or differing between a model's rows",
        ),
        ColumnDef(
            "Data",
            lambda row: Cell(row.run.data(shown), row.run.data(shown)),
            "data source @ dataset revision",
        ),
        *(_metric_def(c) for c in section.columns),
        ColumnDef("Date (UTC)", lambda row: Cell(date(row.run), row.run.created), "when the run started"),
        ColumnDef(
            "Log", lambda row: Cell(row.run.log if shown else row.run.name, row.run.name), "the Inspect log"
        ),
    ]
