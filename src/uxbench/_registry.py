"""Inspect entry point: everything `uxbench/...` that Inspect can find by name.

Kept light: only task, scorer, provider and hook definitions are imported here; heavy
libraries (datasets, torch, transformers) load inside the functions that need them.
"""

# ruff: noqa: F401

from uxbench.pipeline.stages.judge import pipeline_judge
from uxbench.pipeline.stages.miner import pipeline_miner
from uxbench.pipeline.stages.qa import pipeline_qa
from uxbench.providers import baseline_alias, local_models, replay_alias, replay_grm_alias
from uxbench.runtime import batches  # each batched request ends in its result or its error
from uxbench.runtime.epochs import EpochsReducerWarning
from uxbench.runtime.heap import FreezeStartupHeap
from uxbench.runtime.hooks import RedactSecrets
from uxbench.scorers.grm import grm
from uxbench.scorers.judge_verdict import judge_verdict
from uxbench.tasks.grader_check import grader_check
from uxbench.tasks.task1_judge import task1_judge
from uxbench.tasks.task2_eval import task2_eval
from uxbench.tasks.task3_recovery import task3_recovery
