"""Inspect scorers and metrics of the three tasks: the Task 1 verdict scorer, the GRM scorer
(`uxbench/grm`, reusable by other suites) and the metrics both report.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`,
`uxbench.grader_answer`, `uxbench.judge_answer`, `uxbench.qualification`.
"""
