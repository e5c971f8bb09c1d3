"""How a grader's answer is read: its verdict from the text, its score from the logprobs (the
reading of logprobs Task 1's judge shares), what a grader's failure means, and a panel's verdict.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`.
"""
