"""Task 1 on the answering side: a rendered prompt read back, the verdict reader with its named
fallback rules, and P(good) with the calibration metrics.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grading`.
"""
