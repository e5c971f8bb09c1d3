"""How a stand-in grader is qualified: its metrics against reference grades, the GRM-equivalent
correction, which qualification a run may use, and the references (the published per-model outputs,
a person's verdicts).

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`, `uxbench.grader_prompt`,
`uxbench.grader_answer`, `uxbench.judge_answer`.
"""

from uxbench.qualification.correction import corrected_rate
from uxbench.qualification.match import Check, Grading, find_qualification, grm_equivalent
from uxbench.qualification.people_reference import export_logs, read_reference

__all__ = [
    "Check",
    "corrected_rate",
    "export_logs",
    "find_qualification",
    "Grading",
    "grm_equivalent",
    "read_reference",
]
