"""The GRM protocol: reading a grader's answer (verdict from the text, score from the logprobs, by
the reading of logprobs Task 1 shares) and combining several graders into a panel verdict.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`.
"""
