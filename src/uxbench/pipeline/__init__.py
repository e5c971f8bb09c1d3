"""Construction pipeline: from a product's thumbs-rated chat logs to its own UXBench test sets.

A run goes down through the rooms: `read/` (input shapes, field mapping, stage files) →
`privacy/` (redaction, the unsafe-content screen) → `stages/` (signals, prefilter and dedup, the
miner, judge and QA agents, quality gates, sampling, the build) → `run/` (runner, agent runs,
executors, manifests, models, settings). `tools/` (synth, audit, inspect) and `cli.py` sit on
top. A room imports only the rooms before it. See docs/pipeline.md.

May import: `uxbench.runtime`, `uxbench.stats`, `uxbench.data`; never `report`, `web` or `tasks`.
"""

from uxbench.pipeline.stages.judge import pipeline_judge
from uxbench.pipeline.stages.miner import pipeline_miner
from uxbench.pipeline.stages.qa import pipeline_qa

__all__ = ["pipeline_judge", "pipeline_miner", "pipeline_qa"]
