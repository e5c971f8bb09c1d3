"""What the pipeline reads and how it keeps its files: input shapes (JSONL, CSV, Parquet, exports),
the field mapping, raw logs as conversations, and stage files written atomically with their
stats sidecars. May import: `uxbench.runtime`, `uxbench.data`.
"""
