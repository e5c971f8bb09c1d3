"""The paper's published numbers (published.json, source noted inside) and the matching of
Inspect model names such as `anthropic/claude-opus-4-7` or `openai/gpt-5-2025-08-07` to them."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

_SUFFIXES = re.compile(r"(-(\d{8}|\d{4}-\d{2}-\d{2}|latest|preview|exp))+$")


def normalise(model: str) -> str:
    """Provider path, case, separators and date / preview suffixes removed: `gpt-5-2`."""
    name = re.sub(r"[._\s]+", "-", model.rsplit("/", 1)[-1].lower())
    return _SUFFIXES.sub("", name)


@cache
def published() -> dict[str, Any]:
    return json.loads((resources.files("uxbench.report") / "published.json").read_text(encoding="utf-8"))


def _fractions(values: dict[str, float]) -> dict[str, float]:
    return {metric: round(value / 100, 6) for metric, value in values.items()}


def source() -> str:
    return str(published()["source"])


def paper_name(model: str) -> str | None:
    """The paper's name for an Inspect model name, or None when the paper did not test it."""
    name = normalise(model)
    for paper, aliases in published()["models"].items():
        if name in {normalise(alias) for alias in aliases}:
            return str(paper)
    return None


def published_metrics(task: str, model: str) -> dict[str, float] | None:
    """The paper's numbers (as fractions) for this model on this task, if any."""
    paper = paper_name(model)
    values = published()["tasks"].get(task, {}).get(paper) if paper else None
    return _fractions(values) if values else None


def note(task: str, model: str) -> str | None:
    """What a reader must know about the paper's number for this model on this task, if anything."""
    paper = paper_name(model)
    return published().get("notes", {}).get(task, {}).get(paper) if paper else None


def references(task: str) -> dict[str, dict[str, float]]:
    """Non-model reference points of a task (e.g. the human baseline), as fractions."""
    table = published().get("references", {}).get(task, {})
    return {name: _fractions(values) for name, values in table.items()}


def paper_models(task: str) -> dict[str, dict[str, float]]:
    """All published model results of a task, as fractions."""
    return {name: _fractions(values) for name, values in published()["tasks"].get(task, {}).items()}
