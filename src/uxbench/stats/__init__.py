"""Statistics on plain numbers: agreement, ranking and calibration formulas, confidence
intervals and paired tests. No Inspect types, so the report, the metrics and the pipeline's
audit all compute the same number the same way.

May import: `uxbench.runtime`.
"""
