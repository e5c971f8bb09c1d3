"""Reference tasks with no UXBench code in the sample path, to split CPU into ours and Inspect's.

`bare_short` asks one short fixed question per record; `bare_full` sends each Task 1
record's texts joined as one plain user message (the same text our judge prompt carries)
with no metadata. Both score with Inspect's `match()`. Comparing them with Task 1 splits
its CPU per record into Inspect's floor, the cost of prompt size, and our own code.

    inspect eval bench/bare.py@bare_full -T data=DIR --model openai-api/bench/m
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate

FILES = ("uxbench_task1_judge_good_1k.jsonl", "uxbench_task1_judge_bad_1k.jsonl")
KEYS = ("selected_history", "history", "source_query", "query", "agent_response_full")
VERDICT_MARKER = "好 / 差"  # makes bench/loadserver.py answer with one character, as for Task 1


def _texts(value: object) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _records(data: str) -> list[dict[str, object]]:
    return [
        json.loads(line) for name in FILES for line in (Path(data) / name).read_text("utf-8").splitlines()
    ]


@task
def bare_short(data: str) -> Task:
    samples = [
        Sample(id=str(r["cid"]), input=f"Say one of {VERDICT_MARKER}.", target="好") for r in _records(data)
    ]
    return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=match())


@task
def bare_full(data: str) -> Task:
    samples = [
        Sample(
            id=str(r["cid"]),
            input="\n\n".join([*(_texts(r.get(k)) for k in KEYS), VERDICT_MARKER]),
            target="好",
        )
        for r in _records(data)
    ]
    return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=match())
