"""`build_report`: logs in, leaderboard.md / leaderboard.json / index.html / PNG charts out."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from uxbench.credentials import Redactor
from uxbench.errors import DataError
from uxbench.report import charts, html, tables, trust
from uxbench.report.collect import collect, log_paths

NO_CJK_FONT = (
    "No font with Chinese glyphs was found, so chart labels use English names "
    "(install fonts-noto-cjk or fonts-wqy-microhei for the Chinese ones)."
)


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


def _write_text(path: Path, text: str) -> None:
    """Every text file of the report is written here, its credentials blanked out: logs from a
    killed run, an older version or another machine may hold them (docs/scale.md#keys-and-secrets)."""
    path.write_text(Redactor.from_environ().redact(text), encoding="utf-8")


def build_report(
    log_dirs: list[str | Path], out_dir: str | Path, include_partial: bool = False
) -> tables.Leaderboard:
    """Write the report of the logs under `log_dirs` into `out_dir` and return its data."""
    if not log_paths(log_dirs):
        raise DataError(f"no Inspect logs (.eval or .json) found in {', '.join(map(str, log_dirs))}")
    runs, skipped = collect(log_dirs, include_partial=include_partial)
    notes = [] if charts.cjk_font() else [NO_CJK_FONT]
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    board = tables.leaderboard(runs, skipped, [str(d) for d in log_dirs], generated, notes)
    out = Path(out_dir).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    _remove_old_charts(out)
    drawn = charts.draw_all(board, out)
    checks = trust.assess(board)
    drawn += trust.draw(checks, out)
    markdown = tables.markdown(board) + trust.markdown(checks, drawn)
    _write_text(out / "leaderboard.md", markdown)
    data = {**tables.as_json(board), "trust": trust.as_json(checks), "charts": [c.file for c in drawn]}
    _write_text(out / "leaderboard.json", json.dumps(data, ensure_ascii=False, indent=2))
    _write_text(out / "index.html", html.page(board, drawn, out, trust.html(checks)))
    return board
