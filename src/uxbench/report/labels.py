"""How the report writes names, groups and numbers: short model names, chart labels cut in the
middle, file-name slugs, group titles with their English names, percentages and intervals."""

from __future__ import annotations

import hashlib
import math
import re

from uxbench.data.labels import DIFFICULTIES, FAILURE_DIMENSIONS, SCENARIOS, SUCCESS_PATTERNS, english
from uxbench.report.logs import Run
from uxbench.report.percent import pct
from uxbench.stats.intervals import Interval

FEW = 10  # a breakdown cell with fewer records is greyed


LABEL_CHARS = 28  # chart labels longer than this are shortened (the key gives the full name)


GROUP_ORDER: dict[str, tuple[str, ...]] = {
    "failure_dimension": tuple(FAILURE_DIMENSIONS),
    "success_pattern": tuple(SUCCESS_PATTERNS),
    "scenario": tuple(SCENARIOS),
    "difficulty": DIFFICULTIES,
}


BREAKDOWN_TITLES = {
    "failure_dimension": "Failure dimension",
    "success_pattern": "Success pattern",
    "scenario": "Scenario",
    "difficulty": "Difficulty",
}


def short_name(model: str) -> str:
    """The model name without its provider path (`openai/gpt-5` → `gpt-5`)."""
    return model.rstrip("/").rsplit("/", 1)[-1] or model


def shorten(text: str, limit: int = LABEL_CHARS) -> str:
    """At most `limit` characters, cut in the middle so both ends (often a date) stay."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def slug(text: str) -> str:
    """A file-name part: readable, short, and unique per text (a hash of the whole text)."""
    readable = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()[:40].strip("-")
    return (
        f"{readable}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"
        if readable
        else hashlib.sha1(text.encode()).hexdigest()[:8]
    )


def group_title(key: str, group: str) -> str:
    """A label with its English name when it has one: `冗余啰嗦 · Verbosity/Redundancy`."""
    name = english(group) if key in ("failure_dimension", "success_pattern", "scenario") else group
    return group if name == group else f"{group} · {name}"


def settings_text(settings: dict[str, str]) -> str:
    return ", ".join(f"{name}={value}" for name, value in settings.items())


def fmt(value: float | None, kind: str = "pct") -> str:
    if value is None or math.isnan(value):
        return "–"
    if kind == "pct":
        return pct(value)
    return f"{value:+.3f}" if kind == "delta" else f"{value:.3f}"


def fmt_interval(value: float | None, interval: Interval | None, kind: str = "pct") -> str:
    text = fmt(value, kind)
    if interval and value is not None:
        text += (
            f" ({fmt(interval[0], kind)} to {fmt(interval[1], kind)})"
            if kind == "delta"
            else (f" ({fmt(interval[0])}–{fmt(interval[1])})")
        )
    return text


def date(run: Run) -> str:
    return run.created[:16].replace("T", " ")
