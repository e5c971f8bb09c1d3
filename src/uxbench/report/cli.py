"""`uxbench report LOG_DIR... --out DIR`."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="leaderboard (Markdown, HTML, JSON, PNG charts) from Inspect logs",
        description="Build a leaderboard from UXBench Inspect logs: the newest successful log per "
        "experiment (task, model, grader and settings), one ranking per grader; partial runs in their own "
        "unranked rows; the other logs are listed with the reason they were left out.",
    )
    parser.add_argument(
        "log_dirs", nargs="+", metavar="LOG_DIR", help="log directories (searched recursively) or files"
    )
    parser.add_argument(
        "--out", required=True, type=Path, metavar="DIR", help="directory to write the report to"
    )
    parser.add_argument(
        "--complete-only",
        action="store_true",
        help="leave out runs that cover part of their dataset (--limit, --sample-id, errored samples)",
    )
    parser.add_argument(
        "--show-paths",
        action="store_true",
        help="print absolute log paths and path-valued settings (default: names relative to LOG_DIR)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from uxbench.report.build import build_report

    board = build_report(args.log_dirs, args.out, partial=not args.complete_only, show_paths=args.show_paths)
    for table in board.tables:
        for section in table.sections:
            partial = sum(1 for row in section.rows if row.run.partial)
            people = sum(1 for row in section.rows if row.run.human)
            extra = f", {partial} partial (unranked)" if partial else ""
            extra += f", {people} by people (unranked)" if people else ""
            corrected = sum(1 for row in section.rows if row.grm and row.grm.value is not None)
            extra += f", {corrected} with a GRM-equivalent" if corrected else ""
            print(f"{section.title}: {len(section.rows)} row(s){extra}")
    if board.checks:
        print(f"grader checks: {len(board.checks)}")
    for spec in board.missing:
        print(f"{spec.title}: no usable log")
    if board.skipped:
        where = "under 'Skipped logs' in index.html and leaderboard.md"
        print(f"left out {len(board.skipped)} log(s); reasons {where}")
    for note in board.notes:
        print(f"note: {note}")
    print(f"wrote {args.out / 'index.html'}, leaderboard.md, leaderboard.json and the charts")
    return 0
