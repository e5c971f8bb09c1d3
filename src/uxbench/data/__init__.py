"""The benchmark's records: label sets, record normalisation, prompt templates, exclusions, and
the sources (hub, directory, file, the bundled sample) whose records become Inspect samples.
The bundled sample and the paper's label shares are files in this folder.

May import: `uxbench.runtime`, `uxbench.stats`.
"""

from uxbench.data.dataset import uxbench_dataset
from uxbench.data.labels import DIFFICULTIES, FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS, english
from uxbench.data.records import (
    EvalRecord,
    JudgeRecord,
    RecordError,
    RecoveryRecord,
    eval_record,
    judge_record,
    recovery_record,
)

__all__ = [
    "DIFFICULTIES",
    "FAILURE_DIMENSIONS",
    "SCENARIOS",
    "SUCCESS_PATTERNS",
    "english",
    "eval_record",
    "EvalRecord",
    "judge_record",
    "JudgeRecord",
    "RecordError",
    "recovery_record",
    "RecoveryRecord",
    "uxbench_dataset",
]
