"""Miner agent (`uxbench/pipeline_miner`): find the usable cases in each conversation.

One sample per conversation and track: disliked conversations are mined for failure cases,
liked ones for success cases (a conversation with both ratings yields both samples).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig

from uxbench.data.labels import FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS
from uxbench.pipeline.stages.agents import (
    PROBE_ITEM,
    fill,
    item_dataset,
    label_list,
    load_prompt,
    read_items,
    render_conversation,
    structured_answer,
    valid_answer,
)
from uxbench.pipeline.stages.rows import SignalRow
from uxbench.pipeline.stages.schemas import MINING_SCHEMAS
from uxbench.runtime.offline import ensure_tiktoken_cache
from uxbench.tasks.parameters import typed_parameters

REPLY_TURN = {"failure": "failed_turn", "success": "liked_turn"}


def miner_items(row: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Items of a prefiltered conversation row (or the row itself when it already is an item)."""
    if "track" in row:
        yield row
        return
    for track in row["signals"]["tracks"]:
        yield {
            "id": f"{row['cid']}#{track}",
            "cid": row["cid"],
            "track": track,
            "turns": row["turns"],
            "signals": row["signals"],
        }


def miner_prompter(
    failure_prompt: str | None = None, success_prompt: str | None = None
) -> Callable[[dict[str, Any]], str]:
    """The miner's prompt of an item (its track's prompt file, built-in or the user's)."""
    templates = {
        "failure": load_prompt("miner_failure", failure_prompt),
        "success": load_prompt("miner_success", success_prompt),
    }
    labels = {
        "dimensions": label_list(FAILURE_DIMENSIONS),
        "patterns": label_list(SUCCESS_PATTERNS),
        "scenarios": label_list(SCENARIOS),
    }

    def prompt(item: dict[str, Any]) -> str:
        return fill(templates[item["track"]], conversation=render_conversation(item), **labels)

    return prompt


# the probe items a run's identity renders the prompts on (runtime/identity.py)
MINER_PROBES = {track: {**PROBE_ITEM, "track": track} for track in ("failure", "success")}


@task
@typed_parameters
def pipeline_miner(
    input: str, max_attempts: int = 3, failure_prompt: str | None = None, success_prompt: str | None = None
) -> Task:
    """Miner: the failure / success cases of each conversation.

    Args:
        input: prefiltered conversations (JSONL from `uxbench pipeline prefilter`) or miner items.
        max_attempts: answers tried per conversation before it counts as invalid.
        failure_prompt: your own prompt file for disliked conversations.
        success_prompt: your own prompt file for liked conversations.
    """
    ensure_tiktoken_cache()
    prompt = miner_prompter(failure_prompt, success_prompt)
    return Task(
        dataset=item_dataset(read_items(input, miner_items, SignalRow), prompt, "pipeline_miner", input),
        solver=structured_answer(
            lambda item: MINING_SCHEMAS[item["track"]],
            lambda item: {"roles": [t["role"] for t in item["turns"]]},
            max_attempts,
        ),
        scorer=valid_answer(),
        config=GenerateConfig(temperature=0.1, max_tokens=4096),
        version="3.0.0",  # 2: every quoted text fenced; 3: fence-shaped lines inside them neutralised
    )


def collect_miner(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One row per case found (the judge's items), and the miner's counts."""
    rows: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    for result in results:
        item = result["item"]
        counts[f"samples_{item['track']}"] += 1
        counts["reasked"] += result["attempts"] > 1
        if result["result"] is None:
            counts[f"invalid_{item['track']}"] += 1
            continue
        seen: set[tuple[int, int]] = set()
        cases = result["result"]["cases"]
        if not cases:
            counts[f"no_case_{item['track']}"] += 1
        for case in cases:
            key = (case[REPLY_TURN[item["track"]]], case["query_turn"])
            if key in seen:
                counts["repeated_case_dropped"] += 1
                continue
            seen.add(key)
            counts[f"cases_{item['track']}"] += 1
            rows.append(
                {
                    **{k: item[k] for k in ("cid", "track", "turns", "signals")},
                    "id": f"{item['id']}#{len(seen) - 1}",
                    "case": case,
                }
            )
    return rows, dict(sorted(counts.items()))
