"""Looking for leaked credentials in what a run leaves behind: the raw bytes of every member of
an `.eval` zip, console text, and the three text outputs of `uxbench report`."""

from __future__ import annotations

import zipfile
from pathlib import Path

from uxbench.cli import main as uxbench_main

REPORT_FILES = ("index.html", "leaderboard.md", "leaderboard.json")


def found(secrets: tuple[str, ...], data: bytes | str) -> list[str]:
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    return [secret for secret in secrets if secret in text]


def log_leaks(path: Path, secrets: tuple[str, ...]) -> list[str]:
    """Secrets in any member of an .eval zip, read as raw bytes."""
    with zipfile.ZipFile(path) as archive:
        return [f"{m}: {s}" for m in archive.namelist() for s in found(secrets, archive.read(m))]


def report_leaks(log_dir: Path, out: Path, secrets: tuple[str, ...]) -> list[str]:
    """Build the report of `log_dir` into `out`; the secrets found in its text outputs."""
    assert uxbench_main(["report", str(log_dir), "--out", str(out)]) == 0
    return [f"{name}: {s}" for name in REPORT_FILES for s in found(secrets, (out / name).read_bytes())]
