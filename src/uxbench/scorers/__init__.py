"""Inspect scorers and metrics of the three tasks: the Task 1 verdict scorer, the GRM scorer
(`uxbench/grm`, reusable by other suites) and the metrics both report.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grading`, `uxbench.judge`.
"""
