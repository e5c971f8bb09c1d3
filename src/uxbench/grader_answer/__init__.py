"""How a grader's answer is read: its verdict from the text, its score from the logprobs (the
reading of logprobs Task 1's judge shares), what a grader's failure means, and a panel's verdict.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`.
"""

from uxbench.grader_answer.reading import BAD, FAILED, GOOD, Judgment, judge, score_of, verdict_of

__all__ = [
    "BAD",
    "FAILED",
    "GOOD",
    "judge",
    "Judgment",
    "score_of",
    "verdict_of",
]
