"""`uxbench report LOG_DIR... --out DIR`."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("report")
@click.argument("log_dirs", nargs=-1, required=True, metavar="LOG_DIR...")
@click.option(
    "--out",
    required=True,
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Directory to write the report to.",
)
@click.option(
    "--complete-only",
    is_flag=True,
    help="Leave out runs that cover part of their dataset (--limit, --sample-id, errored samples).",
)
@click.option(
    "--show-paths",
    is_flag=True,
    help="Print absolute log paths and path-valued settings (default: names relative to LOG_DIR).",
)
@click.option(
    "--prices",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="YAML/JSON prices in $/M tokens (the --model-cost-config shape): the roles of the models it "
    "prices are costed from the logs' tokens; the others keep the logs' cost.",
)
def report(
    log_dirs: tuple[str, ...], out: Path, complete_only: bool, show_paths: bool, prices: Path | None
) -> int:
    """Build a leaderboard from Inspect logs.

    A leaderboard (Markdown, HTML, JSON, PNG charts) from the UXBench Inspect logs under
    LOG_DIR... (log directories, searched recursively, or files): the newest successful log per
    experiment (task, model, grader and settings), one ranking per grader; partial runs in their
    own unranked rows; the other logs are listed with the reason they were left out.
    """
    from uxbench.report.output import build_report

    board = build_report(list(log_dirs), out, partial=not complete_only, show_paths=show_paths, prices=prices)
    for table in board.tables:
        for section in table.sections:
            partial = sum(1 for row in section.rows if row.run.partial)
            people = sum(1 for row in section.rows if row.run.human)
            extra = f", {partial} partial (unranked)" if partial else ""
            extra += f", {people} by people (unranked)" if people else ""
            corrected = sum(1 for row in section.rows if row.grm and row.grm.value is not None)
            extra += f", {corrected} with a GRM-equivalent" if corrected else ""
            print(f"{section.title}: {len(section.rows)} row(s){extra}")
            for note in section.state_notes():
                print(f"  {note}")
    if board.checks:
        print(f"grader checks: {len(board.checks)}")
    for spec in board.missing:
        print(f"{spec.title}: no usable log")
    if board.skipped:
        where = "under 'Skipped logs' in index.html and leaderboard.md"
        print(f"left out {len(board.skipped)} log(s); reasons {where}")
    for note in board.notes:
        print(f"note: {note}")
    print(f"wrote {out / 'index.html'}, leaderboard.md, leaderboard.json and the charts")
    return 0
