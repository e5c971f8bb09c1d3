"""`uxbench scrub-credentials LOG...`: blank credentials out of logs the redaction hook never rewrote (a
killed run's, an older version's, another machine's)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import click


@click.command("scrub-credentials")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="LOG...")
def scrub_credentials(paths: tuple[Path, ...]) -> int:
    """Blank credentials out of existing Inspect logs.

    Rewrite the Inspect logs LOG... (.eval, .json; directories are searched recursively) with the
    credentials of this environment (*_API_KEY, *_TOKEN, *_SECRET, ... variables, the user-info of
    *_BASE_URL and *_PROXY URLs), those each log's header names (its base URLs, -M api_key=...)
    and bearer tokens blanked out, in any encoding. Run it with the same variables set as the run
    that wrote the logs.
    """
    from uxbench.runtime.credentials import CredentialScrubber

    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.suffix in (".eval", ".json") and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            print(f"{path}: no such log file or directory")
            return 1
    redactor = CredentialScrubber.from_environ()
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
