"""A section's tables as grids (grid.py), which the Markdown and HTML renderings print: the
leaderboard, each breakdown, and the logs left out."""

from __future__ import annotations

from uxbench.report.columns import section_columns
from uxbench.report.formatting import BREAKDOWN_TITLES, FEW, fmt, group_title
from uxbench.report.grid import Cell, Grid
from uxbench.report.sections import Leaderboard, Section


def section_grid(section: Section) -> Grid:
    defs = section_columns(section)
    return Grid(
        titles=[d.title for d in defs],
        rows=[[d.cell(row) for d in defs] for row in section.rows],
        row_kinds=[row.kind for row in section.rows],
        notes=[d.note for d in defs],
        id=f"{section.id}-table",
        pin=1,
    )


def breakdown_grid(section: Section, key: str) -> Grid:
    """Groups down, models across; each cell `value (records)`, greyed under FEW records."""
    groups = section.breakdown(key)
    titles = [BREAKDOWN_TITLES.get(key, key), *(row.chart_label() for row in section.rows)]
    what = f"the records' {BREAKDOWN_TITLES.get(key, key).lower()} (the group)"
    notes = [what, *(row.key_line() for row in section.rows)]
    body = []
    for group, values in groups.items():
        cells = [Cell(group_title(key, group), group)]
        for value, n in values:
            text = fmt(value) + (f" ({n})" if n is not None else "")
            cells.append(
                Cell(
                    text, value, muted=n is not None and n < FEW, note=f"{n} records" if n is not None else ""
                )
            )
        body.append(cells)
    return Grid(titles, body, notes=notes, id=f"{section.id}-{key}")


def skipped_grid(board: Leaderboard) -> Grid:
    rows = [
        [
            Cell(s.log if board.show_paths else s.name, s.name),
            Cell(s.task, s.task),
            Cell(s.model, s.model),
            Cell(s.reason, s.reason),
        ]
        for s in board.skipped
    ]
    notes = ["the Inspect log left out", "its task", "its model", "why it is not a row of the leaderboard"]
    return Grid(["Log", "Task", "Model", "Reason"], rows, notes=notes, id="skipped-table")
