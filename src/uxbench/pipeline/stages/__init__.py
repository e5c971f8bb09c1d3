"""The stages themselves: signal extraction, prefilter and dedup, the miner, judge and QA agents
(Inspect tasks), quality gates, stratified sampling and the build of the release files and
stats report. May import: `pipeline.read`, `pipeline.privacy`, `uxbench.runtime`, `uxbench.stats`,
`uxbench.data`.
"""
