"""leaderboard.md: per task, one ranking per grader with a person's runs beside the others
(Task 1), its trust checks and charts right below it, then the breakdowns; the grader
checks; the skipped logs last. Every text goes through
`grid.md_text`, so names and labels cannot inject HTML or Markdown.
"""

from __future__ import annotations

from uxbench.report import paper_numbers
from uxbench.report.captions import INTERVALS, PAPER_NOTE
from uxbench.report.charts import Chart
from uxbench.report.columns import has_grm_column
from uxbench.report.formatting import FEW
from uxbench.report.grid import markdown as grid_markdown
from uxbench.report.grid import md_linked, md_text
from uxbench.report.paired import NOTE as PAIRED_NOTE
from uxbench.report.paired import paired_grid
from uxbench.report.people import NOTE as AGREEMENT_NOTE
from uxbench.report.people import agreement_grid, agreement_text
from uxbench.report.qualified import CHECKS_NOTE, METHOD, checks_grid
from uxbench.report.section_grids import breakdown_grid, section_grid, skipped_grid
from uxbench.report.sections import Leaderboard, Section
from uxbench.report.separation import NOTE as SEPARATION_NOTE
from uxbench.report.separation import separation_grid
from uxbench.report.token_usage_grid import NOTE as USAGE_NOTE
from uxbench.report.token_usage_grid import usage_grid
from uxbench.report.trust import INTRO, RELIABILITY, STYLE_METHOD, SectionTrust, style_grid, style_text

FEW_NOTE = f"Each cell: value % (records); cells with fewer than {FEW} records are in italics."


def _trust(trust: SectionTrust | None, charts: list[Chart]) -> list[str]:
    if trust is None:
        return []
    if trust.section.spec.graded:
        lines = ["#### Trust checks: style control and judge bias", "", md_text(style_text(trust)), ""]
        return lines + (grid_markdown(style_grid(trust)) if trust.applies else [])
    diagrams = [c for c in charts if c.file.endswith("_reliability.png")]
    if not diagrams:
        return []
    return [
        "#### Trust checks: calibration",
        "",
        md_text(RELIABILITY),
        "",
        *(_image(c) for c in diagrams),
        "",
    ]


def _image(chart: Chart) -> str:
    return f"![{md_text(chart.title)}]({chart.file})"


def _section(section: Section, charts: list[Chart], trust: SectionTrust | None) -> list[str]:
    lines = [f"### {md_text(section.title)}", ""] if section.headed else []
    lines += [md_text(section.common_text()), ""] if section.common else []
    lines += [line for note in section.notes() for line in (md_text(note), "")]
    lines += grid_markdown(section_grid(section))
    if section.pairs:
        lines += ["#### People beside models", "", md_text(PAIRED_NOTE), ""]
        lines += grid_markdown(paired_grid(section.pairs, section.id))
    if section.separation:
        lines += ["#### Which differences are real", ""]
        lines += [md_text(f"{section.separation.summary()}. {SEPARATION_NOTE}"), ""]
        lines += grid_markdown(separation_grid(section.separation, section.id))
    if section.agreement:
        lines += ["#### Agreement among people", "", md_text(agreement_text(section.agreement)), ""]
        lines += grid_markdown(agreement_grid(section.agreement, section.id))
        lines += [md_text(AGREEMENT_NOTE), ""]
    usage = usage_grid(section)
    if usage is not None:
        lines += ["#### Tokens and cost", "", md_text(USAGE_NOTE), "", *grid_markdown(usage)]
    lines += _trust(trust, charts)
    lines += [*(_image(c) for c in charts if not c.file.endswith("_reliability.png")), ""]
    for key in section.breakdown_keys():
        lines += [f"#### {md_text(section.breakdown_meaning(key))}", "", FEW_NOTE, ""]
        lines += grid_markdown(breakdown_grid(section, key))
    return lines


def page(board: Leaderboard, charts: list[Chart], trusts: dict[str, SectionTrust]) -> str:
    corrected = any(has_grm_column(section) for table in board.tables for section in table.sections)
    lines = [
        "# UXBench leaderboard",
        "",
        f"Generated {md_text(board.generated)} from the Inspect logs in {md_text(', '.join(board.sources))}.",
        md_linked(
            f"Ranked by each task's headline metric, one ranking per grader. {INTERVALS} {board.help_notes()}"
            + (f" {METHOD}" if corrected else "")
        ),
        md_linked(f"{PAPER_NOTE} Paper: {paper_numbers.source()}. {INTRO}"),
        *(["", md_text(STYLE_METHOD)] if any(table.spec.graded for table in board.tables) else []),
        "",
        *(f"> {md_text(note)}" for note in board.notes),
        "",
    ]
    for table in board.tables:
        lines += [f"## {md_text(table.spec.title)}", ""]
        for section in table.sections:
            own = [c for c in charts if c.section == section.id]
            lines += _section(section, own, trusts.get(section.id))
    for spec in board.missing:
        lines += [f"## {md_text(spec.title)}", "", "No usable log of this task was found.", ""]
    if board.checks:
        lines += ["## Grader checks", "", md_text(CHECKS_NOTE), ""]
        lines += grid_markdown(checks_grid(board.checks, board.corrected_by(), board.show_paths))
    if board.skipped:
        lines += ["## Skipped logs", ""]
        lines += grid_markdown(skipped_grid(board))
    return "\n".join(lines).rstrip() + "\n"
