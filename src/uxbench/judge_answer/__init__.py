"""How Task 1's judge is read: a rendered prompt read back, the verdict reader with its named
fallback rules, and P(good) with the calibration metrics.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`,
`uxbench.grader_answer`.
"""

from uxbench.judge_answer.prompt import read_judge_prompt
from uxbench.judge_answer.verdict import Verdict, parse_verdict

__all__ = [
    "parse_verdict",
    "read_judge_prompt",
    "Verdict",
]
