"""`uxbench redact LOG...`: blank credentials out of logs the redaction hook never rewrote (a
killed run's, an older version's, another machine's)."""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "redact",
        help="blank API keys, tokens and URL passwords out of existing Inspect logs",
        description="Rewrite Inspect logs (.eval, .json; directories are searched recursively) with the "
        "credentials of this environment (*_API_KEY, *_TOKEN, *_SECRET, ... variables, the user-info of "
        "*_BASE_URL and *_PROXY URLs), those each log's header names (its base URLs, -M api_key=...) and "
        "bearer tokens blanked out, in any encoding. Run it with the same variables set as the run that "
        "wrote the logs.",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="LOG", help="log files or directories")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from uxbench.runtime.credentials import Redactor

    files: list[Path] = []
    for path in args.paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in (".eval", ".json") and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            print(f"{path}: no such log file or directory")
            return 1
    redactor = Redactor.from_environ()
    changed = 0
    for path in files:
        try:
            if redactor.redact_log_file(path):
                changed += 1
                print(f"redacted {path}")
        except (OSError, zipfile.BadZipFile) as error:
            print(f"skipped {path}: not a readable log ({error})")
    print(f"{changed} of {len(files)} file(s) held credentials")
    return 0
