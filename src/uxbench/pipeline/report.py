"""The stats report in Markdown: counts through every stage, then each test set by label,
scenario and difficulty (labels with their English names)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from uxbench.labels import english
from uxbench.pipeline.files import location

_TITLES = {
    "signals": "1. Signals",
    "prefilter": "2. Prefilter",
    "miner": "3. Miner",
    "judge": "4. Judge",
    "qa": "5. QA",
    "build": "6. Test sets",
}


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


def render_report(stats: dict[str, Any]) -> str:
    lines = ["# UXBench construction report", ""]
    for stage, counts in stats.items():
        lines += [f"## {_TITLES.get(stage, stage)}", ""]
        sets = counts.get("sets", {}) if stage == "build" else {}
        for key, value in counts.items():
            if key != "sets":
                lines.append(f"- {key}: {_value(value)}")
        lines.append("")
        for name, facts in sets.items():
            lines += [f"### {name}", ""]
            lines += [
                f"- {k}: {facts[k]}"
                for k in ("candidates", "target", "size", "share_cap", "share_cap_relaxed")
            ]
            lines.append("")
            for part, title in (
                ("per_label", "label"),
                ("per_scenario", "scenario"),
                ("per_difficulty", "difficulty"),
            ):
                lines += _table(title, facts[part])
    return "\n".join(lines)


def write_report(path: str | Path, stats: dict[str, Any]) -> None:
    location(path).write_text(render_report(stats), encoding="utf-8")
