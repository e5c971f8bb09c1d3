"""Leaderboard and report from UXBench Inspect logs (`uxbench report`)."""

from uxbench.report.build import build_report

__all__ = ["build_report"]
