"""Lone surrogates: half of a character (a JSON `\\ud83d` without its pair, common in text cut by
JavaScript), which no UTF-8 encoder accepts.

The rule (docs/scale.md#faults-at-a-glance): in a record a user gives it is a record error
naming the field (`uxbench.data.records`); in text a model wrote it is replaced with U+FFFD,
counted in the score's metadata and logged, so an answer is still graded and the request to
the grader can be encoded.
"""

from __future__ import annotations

import re
from typing import Any

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def first_lone_surrogate(text: str) -> int | None:
    """Index of the first lone surrogate in `text`, or None."""
    match = LONE_SURROGATE.search(text)
    return None if match is None else match.start()


def replace_lone_surrogates(text: str) -> tuple[str, int]:
    """`text` with each lone surrogate replaced by U+FFFD, and how many were replaced."""
    return LONE_SURROGATE.subn(REPLACEMENT, text)


def replace_in(value: Any) -> tuple[Any, int]:
    """A JSON-like value with lone surrogates replaced in every string (and key), and how many."""
    if isinstance(value, str):
        return replace_lone_surrogates(value)
    if isinstance(value, list):
        parts = [replace_in(item) for item in value]
        return [item for item, _ in parts], sum(n for _, n in parts)
    if isinstance(value, dict):
        pairs = [(replace_in(str(key)), replace_in(item)) for key, item in value.items()]
        return {k: v for (k, _), (v, _) in pairs}, sum(a + b for (_, a), (_, b) in pairs)
    return value, 0
