"""A reference task with no UXBench code in the sample path: Inspect's own floor.

`bare_short` asks one short fixed question per Task 1 record and scores with Inspect's
`match()`. Its CPU per call, next to Task 1's, separates Inspect's cost from ours.

    inspect eval bench/bare.py@bare_short -T data=DIR --model openai-api/bench/m
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate

FILES = ("uxbench_task1_judge_good_1k.jsonl", "uxbench_task1_judge_bad_1k.jsonl")
VERDICT_MARKER = "好 / 差"  # makes bench/loadserver.py answer with one character, as for Task 1


@task
def bare_short(data: str) -> Task:
    cids = [json.loads(line)["cid"] for name in FILES for line in (Path(data) / name).open(encoding="utf-8")]
    samples = [Sample(id=str(cid), input=f"Say one of {VERDICT_MARKER}.", target="好") for cid in cids]
    return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=match())
