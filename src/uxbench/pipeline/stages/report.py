"""The stats report in Markdown: counts through every stage, the tokens each stage spent, then
each test set by label (beside the paper's published shares), scenario, difficulty and domain
labels, and the cases the sets share (labels with their English names)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from uxbench.data.labels import english
from uxbench.pipeline.read.files import location
from uxbench.pipeline.stages.usage import usage_by_stage

_TITLES = {
    "signals": "1. Signals and redaction",
    "prefilter": "2. Prefilter",
    "miner": "3. Miner",
    "judge": "4. Judge",
    "qa": "5. QA",
    "build": "6. Test sets",
}
_TABLES = (
    ("per_scenario", "scenario"),
    ("per_difficulty", "difficulty"),
    ("per_scene_l1", "scene (level 1)"),
    ("per_intent_l1", "intent (level 1)"),
    ("per_sector_l1", "sector (level 1)"),
)
_NOT_LISTED = {"sets", "overlap", "model_usage", "warnings", "paper_shares"}


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return f"{len(value)} listed in stats.json" if value else "-"
    return str(value)


def _name(label: str) -> str:
    return label if english(label) == label else f"{label} ({english(label)})"


def _table(title: str, counts: dict[str, int]) -> list[str]:
    total = sum(counts.values()) or 1
    lines = [f"| {title} | count | share |", "|---|---:|---:|"]
    lines += [f"| {_name(k)} | {v} | {100 * v / total:.1f}% |" for k, v in counts.items()]
    return lines + [""]


def _shares(comparison: dict[str, Any]) -> list[str]:
    lines = [
        f"Beside the paper's published shares of its {comparison['paper_set']} set "
        f"(total variation distance: {comparison['total_variation']}%):",
        "",
        "| group | paper | this set | difference |",
        "|---|---:|---:|---:|",
    ]
    for row in comparison["groups"]:
        paper = "-" if row["paper"] is None else f"{row['paper']:.1f}%"
        difference = "-" if row["difference"] is None else f"{row['difference']:+.1f}"
        lines.append(f"| {row['group']} | {paper} | {row['here']:.1f}% | {difference} |")
    return lines + [""]


def _usage(stats: dict[str, Any]) -> list[str]:
    usage = usage_by_stage(stats)
    if not any(usage.values()):
        return []
    lines = ["## Tokens", "", "| stage | model | input | output | total |", "|---|---|---:|---:|---:|"]
    for stage, models in usage.items():
        for model, used in models.items():
            row = [used.get(k, 0) for k in ("input_tokens", "output_tokens", "total_tokens")]
            lines.append(f"| {stage} | {model} | " + " | ".join(f"{n:,}" for n in row) + " |")
    return lines + [""]


def _set(name: str, facts: dict[str, Any]) -> list[str]:
    lines = [f"### {name}", ""]
    keys = ("candidates", "target", "size", "share_cap", "share_cap_relaxed", "reused_from_other_sets")
    lines += [f"- {k}: {facts[k]}" for k in keys if k in facts]
    lines.append("")
    lines += _table("label", facts["per_label"])
    if "paper_shares" in facts:
        lines += _shares(facts["paper_shares"])
    for part, title in _TABLES:
        if part in facts:
            lines += _table(title, facts[part])
    if any(part in facts for part, _ in _TABLES[2:]):
        lines += ["The paper publishes no shares of scenarios or of the scene / intent / sector labels.", ""]
    return lines


def render_report(stats: dict[str, Any]) -> str:
    lines = ["# UXBench construction report", ""]
    for stage, counts in stats.items():
        lines += [f"## {_TITLES.get(stage, stage)}", ""]
        for key, value in counts.items():
            if key not in _NOT_LISTED:
                lines.append(f"- {key}: {_value(value)}")
        lines += [f"- warning: {warning}" for warning in counts.get("warnings", [])]
        lines.append("")
        if stage != "build":
            continue
        for name, facts in counts.get("sets", {}).items():
            lines += _set(name, facts)
        overlap = counts.get("overlap")
        if overlap:
            lines += [f"### Overlap between the sets (mode: {overlap['mode']})", ""]
            lines += ["| sets | cases | conversations |", "|---|---:|---:|"]
            lines += [
                f"| {pair} | {n['cases']} | {n['conversations']} |" for pair, n in overlap["pairs"].items()
            ]
            lines.append("")
    return "\n".join(lines + _usage(stats))


def write_report(path: str | Path, stats: dict[str, Any]) -> None:
    location(path).write_text(render_report(stats), encoding="utf-8")
