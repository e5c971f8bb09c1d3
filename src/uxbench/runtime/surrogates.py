"""Lone surrogates: half of a character (a JSON `\\ud83d` without its pair, common in text cut by
JavaScript), which no UTF-8 encoder accepts.

The rule (docs/scale.md#faults-at-a-glance): in a record a user gives it is a record error
naming the field (`uxbench.data.records`); in text a model wrote it is replaced with U+FFFD,
counted in the score's metadata and logged, so an answer is still graded and the request to
the grader can be encoded.
"""

from __future__ import annotations

import re

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def first_lone_surrogate(text: str) -> int | None:
    """Index of the first lone surrogate in `text`, or None."""
    match = LONE_SURROGATE.search(text)
    return None if match is None else match.start()


def replace_lone_surrogates(text: str) -> tuple[str, int]:
    """`text` with each lone surrogate replaced by U+FFFD, and how many were replaced."""
    return LONE_SURROGATE.subn(REPLACEMENT, text)
