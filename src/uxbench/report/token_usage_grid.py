"""The tokens-and-cost table of a ranking: per run, the model under test's and the grader's
input and output tokens and cost, in total and per 1,000 records (token_usage.py reads them)."""

from __future__ import annotations

from uxbench.report.grid import Cell, Grid
from uxbench.report.sections import Section
from uxbench.report.token_usage import RoleUsage

NOTE = (
    "Tokens from Inspect's own accounting in each log. Cost from: log, Inspect's figure (it needs prices "
    "when the run is made: its model database or --model-cost-config); price file, computed from the "
    "log's tokens at the prices given to uxbench report --prices; blank where no price was known. "
    "Per 1k: per 1,000 records."
)
# (title, what the column means: its header's tooltip)
COLUMNS = [
    ("Run", "the ranking's row: the model (a person: its annotator)"),
    ("Role", "model: the model under test; grader: the grader role's calls"),
    ("Input tokens", "input tokens of the role's calls, from Inspect's usage in the log"),
    ("Output tokens", "output tokens of the role's calls"),
    ("Cost $", "what the calls cost; blank where no price was known"),
    ("Cost from", "log: Inspect's cost in the log; price file: at the prices of uxbench report --prices"),
    ("Input / 1k", "input tokens per 1,000 records"),
    ("Output / 1k", "output tokens per 1,000 records"),
    ("Cost $ / 1k", "cost per 1,000 records; blank where no price was known"),
]
TITLES = [title for title, _ in COLUMNS]


def _cells(usage: RoleUsage, records: int) -> list[Cell]:
    per = 1000 / records if records else 0.0
    cost = "" if usage.cost is None else f"{usage.cost:,.4f}"
    cost_1k = "" if usage.cost is None or not records else f"{usage.cost * per:,.4f}"
    return [
        Cell(f"{usage.calls_input_tokens:,}", usage.calls_input_tokens),
        Cell(f"{usage.output_tokens:,}", usage.output_tokens),
        Cell(cost, usage.cost),
        Cell(usage.cost_source or "", usage.cost_source),
        Cell(f"{round(usage.calls_input_tokens * per):,}" if records else "", usage.calls_input_tokens * per),
        Cell(f"{round(usage.output_tokens * per):,}" if records else "", usage.output_tokens * per),
        Cell(cost_1k, None if usage.cost is None else usage.cost * per),
    ]


def usage_grid(section: Section) -> Grid | None:
    """One line per run and role that has usage; None when no run of the section has any."""
    rows = []
    for row in section.rows:
        usage = row.run.usage
        if usage is None:
            continue
        for role, found in (("model", usage.model), ("grader", usage.grader)):
            if found is not None:
                rows.append([Cell(row.label, row.label), Cell(role, role), *_cells(found, row.run.samples)])
    return Grid(TITLES, rows, notes=[note for _, note in COLUMNS], id=f"{section.id}-usage") if rows else None
