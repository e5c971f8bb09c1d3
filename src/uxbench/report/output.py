"""`build_report`: logs in, leaderboard.md / leaderboard.json / index.html / PNG charts out.

Every file the report writes goes through `_write`, the one place to filter what leaves
the process.
"""

from __future__ import annotations

import errno
import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from uxbench.report import charts, html, markdown, trust
from uxbench.report.collect import collect
from uxbench.report.fonts import INSTALL_HINT, cjk_font
from uxbench.report.leaderboard_json import as_json
from uxbench.report.samples import Evidence
from uxbench.report.sections import Leaderboard, leaderboard
from uxbench.report.spec import TASKS
from uxbench.report.usage_prices import PriceFile
from uxbench.report.workers import pmap
from uxbench.runtime.credentials import CredentialScrubber
from uxbench.runtime.errors import DataError

# a report that cannot be written: one line, not a traceback (from the pooling's workers too)
_CANNOT_WRITE = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES)
NO_CJK_FONT = (
    "No font with Chinese glyphs was found, so chart labels use English names and other Chinese "
    f"text in charts shows as '?' ({INSTALL_HINT} for the Chinese ones)."
)


def _write(out_dir: Path, name: str, content: str | bytes) -> None:
    """Write one output file of the report; text files with their credentials blanked out, since
    logs from a killed run, an older version or another machine may hold them
    (docs/scale.md#keys-and-secrets)."""
    path = out_dir / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(CredentialScrubber.from_environ().redact(content), encoding="utf-8")


def _remove_old_charts(out_dir: Path) -> None:
    """Charts an earlier report listed, so that none of a task now absent lingers."""
    previous = out_dir / "leaderboard.json"
    try:
        files = json.loads(previous.read_text(encoding="utf-8")).get("charts", [])
    except (OSError, ValueError, AttributeError):
        return
    for name in files:
        if isinstance(name, str) and Path(name).name == name and name.endswith(".png"):
            (out_dir / name).unlink(missing_ok=True)


def build_report(
    log_dirs: list[str | Path],
    out_dir: str | Path,
    partial: bool = True,
    show_paths: bool = False,
    prices: str | Path | None = None,
) -> Leaderboard:
    """Write the report of the logs under `log_dirs` into `out_dir` and return its data.

    `partial`: show runs that cover part of their dataset (unranked, marked); `show_paths`:
    print absolute log paths and path-valued settings instead of relative names; `prices`: a
    price file (the `--model-cost-config` shape) whose prices cost the roles of the models it
    names (usage_prices.py)."""
    priced = None if prices is None else PriceFile.read(Path(prices).expanduser())
    out = Path(out_dir).expanduser()
    try:
        out.mkdir(parents=True, exist_ok=True)
        # the pooled logs of sharded runs (report/pooling.py) are kept while the report is built
        with tempfile.TemporaryDirectory(prefix=".pooled-", dir=out) as pooled:
            return _build(log_dirs, out, partial, show_paths, Path(pooled), priced)
    except OSError as error:
        if error.errno not in _CANNOT_WRITE:
            raise
        what = "the disk is full" if error.errno in (errno.ENOSPC, errno.EDQUOT) else "cannot write"
        raise DataError(
            f"{what} ({error.strerror}) writing {error.filename or out}; free some space or give "
            "another --out, then run the report again"
        ) from None


def _build(
    log_dirs: list[str | Path],
    out: Path,
    partial: bool,
    show_paths: bool,
    pool_dir: Path,
    priced: PriceFile | None,
) -> Leaderboard:
    runs, grader_checks, skipped = collect(log_dirs, partial=partial, pool_dir=pool_dir)
    if not runs and not grader_checks and not skipped:
        raise DataError(f"no Inspect logs (.eval or .json) found in {', '.join(map(str, log_dirs))}")
    notes = [] if cjk_font() else [NO_CJK_FONT]
    if priced is not None:
        runs = priced.runs(runs)
        notes.append(priced.note(show_paths))
    generated = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    sources = [str(d) if show_paths or not Path(d).is_absolute() else Path(d).name for d in log_dirs]
    evidence = Evidence()
    evidence.prefetch(runs, [run for run in runs if TASKS[run.task].graded])
    board = leaderboard(runs, skipped, sources, generated, notes, evidence, show_paths, grader_checks)
    checks = trust.assess(board, evidence)
    _remove_old_charts(out)
    jobs = [
        job
        for table in board.tables
        for section in table.sections
        for job in charts.chart_jobs(section, checks[section.id].reliability)
    ]
    drawn: list[charts.Chart] = []
    for chart, png in filter(None, pmap(charts.render, jobs)):
        if any(chart.file == other.file for other in drawn):
            raise RuntimeError(f"two charts named {chart.file}")
        _write(out, chart.file, png)
        drawn.append(chart)
    _write(out, "leaderboard.md", markdown.page(board, drawn, checks))
    data = {**as_json(board), "trust": trust.as_json(checks), "charts": [c.file for c in drawn]}
    _write(out, "leaderboard.json", json.dumps(data, ensure_ascii=False, indent=2))
    _write(out, "index.html", html.page(board, drawn, checks, out))
    return board
