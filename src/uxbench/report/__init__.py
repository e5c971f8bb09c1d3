"""Leaderboard and report from UXBench Inspect logs (`uxbench report`).

`build_report` loads on first use: importing `uxbench.report.cli` (as `uxbench --help` does)
must not pull in matplotlib and the log readers.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build_report"]


def __getattr__(name: str) -> Any:
    if name == "build_report":
        from uxbench.report.output import build_report

        return build_report
    raise AttributeError(f"module 'uxbench.report' has no attribute {name!r}")
