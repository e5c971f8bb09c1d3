"""How far a stand-in grader can be trusted: its metrics against reference grades, the
GRM-equivalent correction, which qualification a run may use, and the published per-model
outputs that serve as references.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grading`, `uxbench.judge`.
"""
