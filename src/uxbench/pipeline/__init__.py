"""Construction pipeline: from a product's thumbs-rated chat logs to its own UXBench test sets.

Deterministic stages (signals, prefilter) are pure functions over records; agent stages
(miner, judge, QA) are Inspect tasks; `build` turns their results into the four release
files; `runner` chains everything resumably. See docs/pipeline.md.
"""
