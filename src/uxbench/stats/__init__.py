"""Statistics on plain numbers: agreement, ranking and calibration formulas, confidence
intervals and paired tests. No Inspect types, so the report, the metrics and the pipeline's
audit all compute the same number the same way.

May import: `uxbench.runtime`.
"""

from uxbench.stats.agreement import auroc, brier, cohen_kappa, ece, krippendorff_alpha, mcc
from uxbench.stats.intervals import (
    bootstrap_mean,
    bootstrap_units,
    jeffreys,
    mcnemar_exact,
    mover_mean,
    paired_difference,
    wilson,
)
from uxbench.stats.pairwise import separate
from uxbench.stats.prevalence import ppi_mean, qualification_size, rogan_gladen

__all__ = [
    "auroc",
    "bootstrap_mean",
    "bootstrap_units",
    "brier",
    "cohen_kappa",
    "ece",
    "jeffreys",
    "krippendorff_alpha",
    "mcc",
    "mcnemar_exact",
    "mover_mean",
    "paired_difference",
    "ppi_mean",
    "qualification_size",
    "rogan_gladen",
    "separate",
    "wilson",
]
