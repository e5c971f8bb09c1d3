"""The patterns-only redactor the privacy tests read, and the ways they read it: what CI runs, with
no learned detector installed."""

from __future__ import annotations

from uxbench.pipeline.privacy.redact import Redactor

PATTERNS = Redactor(ner=None)


def redact(text: str) -> str:
    """`text` with each span the patterns find replaced by its kind in brackets."""
    pieces, last = [], 0
    for start, end, kind in PATTERNS.find_spans(text):
        pieces += [text[last:start], f"[{kind}]"]
        last = end
    return "".join(pieces) + text[last:]


def untouched(text: str, value: str) -> bool:
    """Whether no span touches `value` (its first occurrence in `text`)."""
    start = text.index(value)
    return not any(s < start + len(value) and start < e for s, e, _ in PATTERNS.find_spans(text))
