"""Tokens the agent stages spent, per model, from their Inspect logs' `model_usage`.

Every log of a stage's work directory counts, including those of runs that were interrupted
and resumed: the tokens were spent. A log that never finished has no totals in its header;
its finished samples' own usage is summed instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.model import ModelUsage

FIELDS = ("input_tokens", "output_tokens", "total_tokens", "reasoning_tokens", "input_tokens_cache_read")


def _log_usage(log_file: Path) -> dict[str, ModelUsage]:
    from inspect_ai.log import read_eval_log

    header = read_eval_log(str(log_file), header_only=True)
    if header.stats.model_usage:
        return dict(header.stats.model_usage)
    usage: dict[str, ModelUsage] = {}
    for sample in read_eval_log(str(log_file), exclude_fields={"events", "messages"}).samples or []:
        for model, used in sample.model_usage.items():
            usage[model] = usage[model] + used if model in usage else used
    return usage


def stage_usage(logs_dir: Path) -> dict[str, dict[str, int]]:
    """`{model: {input_tokens, output_tokens, total_tokens, ...}}` over every log in `logs_dir`
    (each chunk's logs are in a folder of their own; older runs wrote them directly there)."""
    totals: dict[str, ModelUsage] = {}
    for log_file in sorted([*logs_dir.glob("*.eval"), *logs_dir.glob("*/*.eval")], key=str):
        for model, used in _log_usage(log_file).items():
            totals[model] = totals[model] + used if model in totals else used
    return {
        model: {name: int(getattr(used, name)) for name in FIELDS if getattr(used, name)}
        for model, used in sorted(totals.items())
    }


def usage_by_stage(stats: dict[str, Any]) -> dict[str, dict[str, dict[str, int]]]:
    """The `model_usage` of each agent stage in a stats dict."""
    return {stage: counts["model_usage"] for stage, counts in stats.items() if "model_usage" in counts}
