"""Inspect scorers and metrics of the three tasks: the Task 1 verdict scorer, the GRM scorer
(`uxbench/grm`, reusable by other suites) and the metrics both report.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`,
`uxbench.grader_answer`, `uxbench.judge_answer`, `uxbench.qualification`.
"""

from uxbench.scorers.grm import grm
from uxbench.scorers.judge_verdict import judge_verdict
from uxbench.scorers.metrics import avg_acc, bad_acc, good_acc, good_pct, recovery_rate

__all__ = [
    "avg_acc",
    "bad_acc",
    "good_acc",
    "good_pct",
    "grm",
    "judge_verdict",
    "recovery_rate",
]
