"""How a stand-in grader is qualified: its metrics against reference grades, the GRM-equivalent
correction, which qualification a run may use, and the references (the published per-model outputs,
a person's verdicts).

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`,
`uxbench.grader_answer`, `uxbench.judge_answer`.
"""
