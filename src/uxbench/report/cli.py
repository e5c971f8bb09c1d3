"""`uxbench report LOG_DIR... --out DIR`."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="leaderboard (Markdown, HTML, JSON, PNG charts) from Inspect logs",
        description="Build a leaderboard from UXBench Inspect logs: the newest complete, successful log "
        "per (task, model, task arguments, grader); the others are listed with the reason they were skipped.",
    )
    parser.add_argument(
        "log_dirs", nargs="+", metavar="LOG_DIR", help="log directories (searched recursively) or files"
    )
    parser.add_argument(
        "--out", required=True, type=Path, metavar="DIR", help="directory to write the report to"
    )
    parser.add_argument(
        "--include-partial",
        action="store_true",
        help="also use logs that cover part of the dataset (--limit, --sample-id, errored samples)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from uxbench.report.build import build_report

    board = build_report(args.log_dirs, args.out, include_partial=args.include_partial)
    for table in board.tables:
        print(f"{table.spec.title}: {len(table.rows)} row(s)")
    for spec in board.missing:
        print(f"{spec.title}: no usable log")
    if board.skipped:
        print(f"skipped {len(board.skipped)} log(s); reasons in leaderboard.md")
    for note in board.notes:
        print(f"note: {note}")
    print(f"wrote {args.out / 'index.html'}, leaderboard.md, leaderboard.json and the charts")
    return 0
